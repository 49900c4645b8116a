import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { ClientAt } from '../../e2e/support/sign-in-from'
import { runPlaces } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { pgBouncerMissing, startPgBouncer, type RunningPgBouncer } from '../support/pgbouncer'
import { startServer, type RunningServer } from '../support/server'
import { waitFor } from '../support/wait'

// The app behind PgBouncer in transaction mode (README, Deployment), Debian's pgbouncer: each transaction may run on
// another server connection, and nothing of a session survives it. The migrations go by a direct connection
// (MIGRATION_DATABASE_URL); the command line's bulk import, the server's reads and writes, the data version's
// deferred trigger, the sign-in limits and the scheduler's advisory lock all hold within one transaction.

const PHOTO = path.join('test', 'fixtures', 'exif', 'gox_gps.jpg')
const skip = (!databaseKinds.includes('postgresql') && 'TEST_DATABASE_URL is not set') || pgBouncerMissing()

describe('behind PgBouncer in transaction mode', { skip }, () => {
  let db: TestDatabase
  let dir: string
  let bouncer: RunningPgBouncer
  let server: RunningServer
  let direct: pg.Client
  let env: Record<string, string>
  let authorization: string
  let postId: number
  let scheduledId: number
  const version = async () => Number((await direct.query<{ v: string }>('SELECT "data_version" AS v FROM "site_state"')).rows[0]!.v)

  before(async () => {
    db = await createTestDatabase('postgresql')
    dir = mkdtempSync(path.join(tmpdir(), 'places-pgbouncer-test-'))
    bouncer = await startPgBouncer(db.url)
    env = { DATABASE_URL: bouncer.url, MIGRATION_DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') }
    const places = (...args: string[]) => runPlaces({ ...process.env, ...env }, ...args)
    await places('user', 'create', '--email', 'pooled@example.org', '--password', 'long enough password', '--role', 'editor')
    const secret = (await places('app-password', 'create', '--user', 'pooled@example.org')).split('\n').at(-1)!
    authorization = `Basic ${Buffer.from(`pooled@example.org:${secret}`).toString('base64')}`
    const file = path.join(dir, 'posts.geojson')
    const due = new Date(Date.now() + 8_000).toISOString()
    const feature = (title: string, extra = {}) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.35, 48.85] },
      properties: { title, ...extra },
    })
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [feature('Pooled'), feature('Pooled later', { status: 'future', date: due })] }))
    ;[postId, scheduledId] = (await places('import', file, '--author', 'pooled@example.org')).split('\n').map(Number) as [number, number]
    server = await startServer(env)
    direct = new pg.Client({ connectionString: db.url })
    await direct.connect()
  })

  after(async () => {
    await server?.stop()
    await direct?.end()
    await bouncer?.stop()
    await db?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('the command line imported through it, the server reads and writes through it; a write moves the version once', async () => {
    const collection = (await (await fetch(`${server.url}/places/v1/geojson`)).json()) as { features: { properties: { title: string } }[] }
    assert.deepEqual(
      collection.features.map((f) => f.properties.title),
      ['Pooled'],
    )
    const before = await version()
    const upload = await fetch(`${server.url}/places/v1/media?post=${postId}`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment; filename="pooled.jpg"' },
      body: readFileSync(PHOTO),
    })
    const stored = (await upload.json()) as { url?: string }
    assert.equal(upload.status, 201, JSON.stringify(stored))
    assert.equal(await version(), before + 1, "the upload's transaction made one version")
    const photo = await fetch(new URL(stored.url!, server.url))
    await photo.arrayBuffer()
    assert.equal(photo.status, 200)
  })

  test('failed sign-ins are counted through it', async () => {
    const client = new ClientAt(server.url, '127.0.0.71')
    for (let i = 0; i < 4; i++) assert.equal((await client.signIn('pooled@example.org', 'a wrong password')).status, 401)
    assert.equal((await client.signIn('pooled@example.org', 'long enough password')).status, 429, 'held after the fourth')
  })

  test('a scheduled post goes live through it, under the advisory lock', async () => {
    const status = async () => (await direct.query<{ status: string }>('SELECT "status" FROM "posts" WHERE "id" = $1', [scheduledId])).rows[0]!.status
    await waitFor('the scheduled post to go live', async () => ((await status()) === 'publish' ? true : undefined), 30_000)
  })
})
