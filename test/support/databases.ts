import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { stopPlaces } from './cli'

// Tests run on a fresh SQLite file always, and on a fresh PostgreSQL database of their own when TEST_DATABASE_URL
// names a server (it must be local: tests create and drop databases there).

export type DatabaseKind = 'sqlite' | 'postgresql'
export type TestDatabase = { kind: DatabaseKind; url: string; drop: () => Promise<void> }

export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgresql'] : ['sqlite']

export function assertLocalPostgres(url: string): URL {
  const parsed = new URL(url)
  if (!['localhost', '127.0.0.1', '[::1]', '::1'].includes(parsed.hostname)) {
    throw new Error(`Refusing to run tests against a non-local database (${parsed.hostname}): TEST_DATABASE_URL must name localhost`)
  }
  return parsed
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'places-test-'))
    const url = `file:${path.join(dir, 'test.db')}`
    return {
      kind,
      url,
      drop: async () => {
        await stopPlaces(url)
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  const server = assertLocalPostgres(process.env.TEST_DATABASE_URL!)
  const name = `places_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: server.href })
  await admin.connect()
  await admin.query(`CREATE DATABASE "${name}"`)
  await admin.end()
  const url = new URL(server.href)
  url.pathname = `/${name}`
  return {
    kind,
    url: url.href,
    drop: async () => {
      await stopPlaces(url.href)
      const client = new pg.Client({ connectionString: server.href })
      await client.connect()
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await client.end()
    },
  }
}

/**
 * The database of this run of a test file that drives lib/ itself. lib/ reads its configuration (DATABASE_URL) once
 * per process, so such a file runs on SQLite, and, when TEST_DATABASE_URL is set, adds a test that runs the whole file
 * again in a child process on PostgreSQL. Call it at the top of the file with `import.meta.url`.
 */
export function databaseOfThisRun(file: string): DatabaseKind {
  if (process.env.PLACES_TEST_KIND === 'postgresql') return 'postgresql'
  if (databaseKinds.includes('postgresql')) {
    test('all of the above on PostgreSQL', () => {
      // Without the NODE_TEST_CONTEXT node's runner gave this file: a child that inherits it reports to its parent
      // runner alone, runs nothing of its own and ends with status 0 whatever its tests would have done.
      const { NODE_TEST_CONTEXT, ...env } = process.env
      const child = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', '--test', '--test-reporter=spec', fileURLToPath(file)], {
        env: { ...env, PLACES_TEST_KIND: 'postgresql' },
        encoding: 'utf8',
      })
      assert.equal(child.status, 0, `${child.stdout}\n${child.stderr}`)
      // And it ran them: a child that runs nothing also ends with status 0.
      assert.match(child.stdout, /^ℹ pass [1-9]/m, `${child.stdout}\n${child.stderr}`)
    })
  }
  return 'sqlite'
}

/**
 * A database of this run's kind (databaseOfThisRun) for a file that drives lib/ itself: made and migrated before its
 * tests, as DATABASE_URL, dropped after them. Returns the kind. lib/ is loaded only then, for the files that use it.
 */
export function migratedDatabaseOfThisRun(file: string): DatabaseKind {
  const kind = databaseOfThisRun(file)
  let database: TestDatabase | undefined
  before(async () => {
    database = await createTestDatabase(kind)
    process.env.DATABASE_URL = database.url
    await (await import('../../lib/migrate')).migrate()
  })
  after(async () => {
    await (await import('../../lib/db')).disconnectDb()
    await database?.drop()
  })
  return kind
}
