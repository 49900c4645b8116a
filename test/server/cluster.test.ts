import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { runPlaces } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { startServer, type RunningServer } from '../support/server'
import { waitFor } from '../support/wait'

// Three instances on one PostgreSQL, as three machines: started at once on an empty database, they migrate it once;
// a post scheduled while they run goes live once, in one write, whichever of them wakes for it or dies first.

describe('three instances on one PostgreSQL', { skip: !databaseKinds.includes('postgresql') && 'TEST_DATABASE_URL is not set' }, () => {
  let db: TestDatabase
  let dir: string
  let client: pg.Client
  let servers: RunningServer[] = []
  const start = (count: number) =>
    Promise.all(Array.from({ length: count }, (_, i) => startServer({ DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, `uploads-${i}`) })))
  const version = async () => Number((await client.query<{ v: string }>('SELECT "data_version" AS v FROM "site_state"')).rows[0]!.v)

  before(async () => {
    db = await createTestDatabase('postgresql')
    dir = mkdtempSync(path.join(tmpdir(), 'places-cluster-test-'))
  })

  after(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await client?.end()
    await db?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('started at once on an empty database, they migrate it once', async () => {
    servers = await start(3)
    client = new pg.Client({ connectionString: db.url })
    await client.connect()
    const ledger = (await client.query<{ name: string }>('SELECT "name" FROM "_places_migrations" ORDER BY "name"')).rows.map((row) => row.name)
    assert.deepEqual(ledger, readdirSync(path.join('prisma', 'migrations', 'postgresql')).sort())
    const said = servers.map((server) => server.output.filter((line) => line.startsWith('Places: database migrated')).length)
    assert.deepEqual(said.sort(), [0, 0, 1], 'one of them migrated')
  })

  test('a post scheduled while they run goes live once, in one write, though the instance that would have published it dies', async () => {
    // Started again after the post is scheduled, each sleeps until it is due, and all three wake for it at once.
    await Promise.all(servers.map((server) => server.stop()))
    const env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'cli') }
    await runPlaces(env, 'user', 'create', '--email', 'scheduler@example.org', '--password', 'long enough', '--role', 'editor')
    const file = path.join(dir, 'scheduled.geojson')
    const due = new Date(Date.now() + 20_000)
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: null, properties: { title: 'Later', status: 'future', date: due.toISOString() } }],
      }),
    )
    const id = Number(await runPlaces(env, 'import', file, '--author', 'scheduler@example.org'))
    const scheduled = await version()
    servers = await start(3)
    assert.ok(Date.now() < due.getTime(), 'started before the post is due')
    const [dead, ...living] = servers
    dead!.process.kill('SIGKILL')
    const status = async () => (await client.query<{ status: string }>('SELECT "status" FROM "posts" WHERE "id" = $1', [id])).rows[0]!.status
    await waitFor('the post to go live', async () => ((await status()) === 'publish' ? true : undefined), 40_000)
    assert.ok(Date.now() >= due.getTime() - 1_000, "not before it was due (by this machine's clock, which is the database's)")
    // Every instance has looked once it was due: still one write.
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    assert.equal(await version(), scheduled + 1, 'one version: one write')
    const published = living.flatMap((server) => server.output.filter((line) => line.startsWith('Places: published 1 scheduled post')))
    assert.equal(published.length, 1, 'one instance published it')
  })
})
