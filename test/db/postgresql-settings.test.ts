import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { createDb } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { freePort } from '../support/server'

// The settings of a PostgreSQL deployment (README, Configuration): the pool's size, a direct connection for the
// migrations, and the server's refusal to start without a shared AUTH_SECRET.

const { AUTH_SECRET: _unset, ...environment } = process.env

describe('PostgreSQL settings', { skip: !databaseKinds.includes('postgresql') && 'TEST_DATABASE_URL is not set' }, () => {
  let database: TestDatabase
  let other: TestDatabase
  before(async () => {
    database = await createTestDatabase('postgresql')
    other = await createTestDatabase('postgresql')
    await migrate(database.url)
  })
  after(async () => {
    await database.drop()
    await other.drop()
  })

  test('PG_POOL_MAX bounds the connections a process opens: six queries at once share two', async () => {
    const db = createDb(database.url, { poolMax: 2 })
    try {
      const rows = await Promise.all(
        Array.from({ length: 6 }, () => db.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid, pg_sleep(0.2)::text AS slept`),
      )
      assert.equal(new Set(rows.map(([row]) => row!.pid)).size, 2)
    } finally {
      await db.$disconnect()
    }
  })

  test('places migrate goes through MIGRATION_DATABASE_URL where it is set; with SQLite it is refused', async () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['bin/places.mjs', 'migrate'], { env: { ...environment, ...env }, encoding: 'utf8' })
    const migrated = run({ DATABASE_URL: database.url, MIGRATION_DATABASE_URL: other.url })
    assert.equal(migrated.status, 0, migrated.stderr)
    assert.match(migrated.stdout, /^Applied 0001_/)
    const client = new pg.Client({ connectionString: other.url })
    await client.connect()
    try {
      const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM "_places_migrations"')
      assert.ok(Number(rows[0]!.count) > 10, 'the migrations were applied where MIGRATION_DATABASE_URL points')
    } finally {
      await client.end()
    }
    const refused = run({ DATABASE_URL: 'file:./never.db', MIGRATION_DATABASE_URL: other.url })
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /MIGRATION_DATABASE_URL: only for PostgreSQL, and DATABASE_URL is SQLite/)
  })

  test('the server refuses to start on PostgreSQL without AUTH_SECRET, and says why', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, [path.resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(port)], {
      env: { ...environment, NEXT_TELEMETRY_DISABLED: '1', DATABASE_URL: database.url, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const exited = once(child, 'exit')
    // Next.js starts what instrumentation.ts registers before it serves; a request makes sure it has.
    for (let tries = 0; child.exitCode === null && tries < 300; tries++) {
      await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    if (child.exitCode === null) child.kill()
    const [code] = (await exited) as [number | null]
    assert.equal(code, 1, `still serving after 30 s, or exited otherwise: ${stderr}`)
    assert.match(stderr, /AUTH_SECRET must be set when DATABASE_URL is PostgreSQL/)
  })
})
