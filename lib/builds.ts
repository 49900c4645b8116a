import 'server-only'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { getDb } from './db'

// Every machine must run one build (README, Deployment): each `next build` has its own server-action ids and chunk
// names, so an admin page rendered by one build and saved through another fails ("Failed to find Server Action").
// Each server records its build when it starts; one whose build is not the newest started says so in its log and in
// /healthz, rather than fail saves at random.

const KEEP = 20

let own: string | null | undefined

/** This server's build (`.next/BUILD_ID`, read once: /healthz asks on every probe); null where there is none (`next dev`). */
export function ownBuildId(): string | null {
  if (own !== undefined) return own
  try {
    own = readFileSync(path.join(process.cwd(), '.next', 'BUILD_ID'), 'utf8').trim()
  } catch {
    own = null
  }
  return own
}

/** Records a build as the newest started (at each server's start); the last KEEP starts are kept. */
export async function recordBuild(buildId: string): Promise<void> {
  // A row per start: the highest id is the newest, by the database, whatever the clocks say, and servers starting
  // at once each add theirs without meeting on a key.
  await getDb().serverBuild.create({ data: { buildId, startedAt: new Date() } })
  const old = await getDb().serverBuild.findMany({ orderBy: { id: 'desc' }, skip: KEEP, select: { id: true } })
  if (old.length > 0) await getDb().serverBuild.deleteMany({ where: { id: { in: old.map(({ id }) => id) } } })
}

/** The build the last server started with, or null when none recorded one. */
export async function newestBuild(): Promise<{ buildId: string; startedAt: Date } | null> {
  return getDb().serverBuild.findFirst({ orderBy: { id: 'desc' }, select: { buildId: true, startedAt: true } })
}
