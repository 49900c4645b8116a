import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { places as placesIn } from '../../test/support/cli'

// The real command line (docs/cli.md), run against one project's server: the specs make their users, posts,
// application passwords and attachments the way an operator would, in a process kept per worker and server
// (test/support/cli.ts).

/** What `places` needs to work on a project's server: its DATABASE_URL, UPLOADS_DIR and SITE_URL. */
export type ServerEnv = { databaseUrl: string; uploadsDir: string; baseURL: string }

/** Runs `places <args>`; resolves with its stdout, rejects with its stderr when it exits non-zero. */
export async function places(server: ServerEnv, ...args: string[]): Promise<string> {
  const env = { ...process.env, DATABASE_URL: server.databaseUrl, UPLOADS_DIR: server.uploadsDir, SITE_URL: server.baseURL, NEXT_TELEMETRY_DISABLED: '1' }
  const { status, stdout, stderr } = await placesIn(env, ...args)
  if (status !== 0) throw new Error(`places ${args.join(' ')} exited ${status}:\n${stderr}${stdout}`)
  return stdout
}

function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
}

/** `fn` over `items`, at most `limit` at a time (the machine has two cores). */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await fn(items[index]!, index)
    }
  })
  await Promise.all(workers)
  return results
}

/** A few hex digits that make this run's emails and titles its own (a spec's beforeAll runs again after a failure). */
export function runId(): string {
  return Math.random().toString(16).slice(2, 8)
}

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber'

/** `places user create`; returns the new user's id. */
export async function createUser(server: ServerEnv, email: string, password: string, role: Role): Promise<number> {
  const out = lines(await places(server, 'user', 'create', '--email', email, '--password', password, '--role', role, '--name', `E2E ${role}`))
  const id = Number(out.at(-1))
  if (!Number.isInteger(id)) throw new Error(`places user create printed ${JSON.stringify(out)}`)
  return id
}

/** One feature of the import format (docs/cli.md). */
export type ImportFeature = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] } | null
  properties: {
    title: string
    type?: string
    status?: string
    date?: string
    author?: string
    slug?: string
    address?: string
    content?: string
    geo_public?: boolean
    location_precision?: 'exact' | 'approximate' | 'city' | 'hidden'
    excerpt?: string
    categories?: string[]
    tags?: string[]
  }
}

/** `places import FILE --author E`; returns the new post ids in input order. */
export async function importPosts(server: ServerEnv, features: ImportFeature[], author: string): Promise<number[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-gps-'))
  try {
    const file = path.join(dir, 'posts.geojson')
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features }))
    const ids = lines(await places(server, 'import', file, '--author', author)).map(Number)
    if (ids.length !== features.length || ids.some((id) => !Number.isInteger(id))) {
      throw new Error(`places import printed ${JSON.stringify(ids)} for ${features.length} features`)
    }
    return ids
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** `places app-password create --user E --name N`; returns the password, which it prints once, as the last line. */
export async function createAppPassword(server: ServerEnv, email: string, name: string): Promise<string> {
  const password = lines(await places(server, 'app-password', 'create', '--user', email, '--name', name)).at(-1)
  if (!password) throw new Error(`places app-password create --user ${email} printed nothing`)
  return password
}

export type AppPasswordRow = { uuid: string; name: string; createdAt: string; lastUsedAt: string | null }

/** `places app-password list --user E --json`. */
export async function listAppPasswords(server: ServerEnv, email: string): Promise<AppPasswordRow[]> {
  return JSON.parse(await places(server, 'app-password', 'list', '--user', email, '--json')) as AppPasswordRow[]
}

/** `places app-password revoke --user E --id UUID`, for the password named `name`. */
export async function revokeAppPassword(server: ServerEnv, email: string, name: string): Promise<void> {
  const row = (await listAppPasswords(server, email)).find((r) => r.name === name)
  if (!row) throw new Error(`${email} has no application password named ${name}`)
  await places(server, 'app-password', 'revoke', '--user', email, '--id', row.uuid)
}

/** `places media import --post ID FILE...`; returns the attachment ids in the order of the files. */
export async function importMedia(server: ServerEnv, postId: number, files: string[], title?: string): Promise<number[]> {
  const args = ['media', 'import', '--post', String(postId), ...(title ? ['--title', title] : []), ...files]
  return lines(await places(server, ...args)).map(Number)
}
