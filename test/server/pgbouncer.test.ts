import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { ClientAt } from '../../e2e/support/sign-in-from'
import { runPlaces } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { freePort, startServer, type RunningServer } from '../support/server'
import { waitFor } from '../support/wait'

// The app behind PgBouncer in transaction mode (README, Deployment), Debian's pgbouncer: each transaction may run on
// another server connection, and nothing of a session survives it. The migrations go by a direct connection
// (MIGRATION_DATABASE_URL); the command line's bulk import, the server's reads and writes, the data version's
// deferred trigger, the sign-in limits and the scheduler's advisory lock all hold within one transaction.

const PGBOUNCER = '/usr/sbin/pgbouncer'
const PHOTO = path.join('test', 'fixtures', 'exif', 'gox_gps.jpg')
const skip =
  (!databaseKinds.includes('postgresql') && 'TEST_DATABASE_URL is not set') ||
  (!existsSync(PGBOUNCER) && !process.env.CI && 'pgbouncer is not installed (Debian package pgbouncer)')

describe('behind PgBouncer in transaction mode', { skip }, () => {
  let db: TestDatabase
  let dir: string
  let bouncer: ChildProcess
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
    // Run as root, pgbouncer must drop to another user, who reads its files here.
    chmodSync(dir, 0o755)
    const postgres = new URL(db.url)
    const port = await freePort()
    writeFileSync(path.join(dir, 'users.txt'), `"${decodeURIComponent(postgres.username)}" "${decodeURIComponent(postgres.password)}"\n`)
    writeFileSync(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${postgres.hostname} port=${postgres.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = plain',
        `auth_file = ${path.join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        'default_pool_size = 8',
        'max_client_conn = 500',
        'log_connections = 0',
        'log_disconnections = 0',
        '',
      ].join('\n'),
    )
    // Its log is shown only if it stops.
    bouncer = spawn(PGBOUNCER, [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let log = ''
    bouncer.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
    const pooled = new URL(db.url)
    pooled.port = String(port)
    await waitFor('pgbouncer to answer', async () => {
      if (bouncer.exitCode !== null) throw new Error(`pgbouncer exited with ${bouncer.exitCode}:\n${log}`)
      const client = new pg.Client({ connectionString: pooled.href })
      try {
        await client.connect()
        await client.query('SELECT 1')
        return true
      } catch {
        return undefined
      } finally {
        await client.end().catch(() => {})
      }
    })
    env = { DATABASE_URL: pooled.href, MIGRATION_DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') }
    const places = (...args: string[]) => runPlaces({ ...process.env, ...env }, ...args)
    places('user', 'create', '--email', 'pooled@example.org', '--password', 'long enough password', '--role', 'editor')
    const secret = places('app-password', 'create', '--user', 'pooled@example.org').split('\n').at(-1)!
    authorization = `Basic ${Buffer.from(`pooled@example.org:${secret}`).toString('base64')}`
    const file = path.join(dir, 'posts.geojson')
    const due = new Date(Date.now() + 8_000).toISOString()
    const feature = (title: string, extra = {}) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [2.35, 48.85] },
      properties: { title, ...extra },
    })
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [feature('Pooled'), feature('Pooled later', { status: 'future', date: due })] }))
    ;[postId, scheduledId] = places('import', file, '--author', 'pooled@example.org').split('\n').map(Number) as [number, number]
    server = await startServer(env)
    direct = new pg.Client({ connectionString: db.url })
    await direct.connect()
  })

  after(async () => {
    await server?.stop()
    await direct?.end()
    if (bouncer && bouncer.exitCode === null) {
      bouncer.kill('SIGTERM')
      await new Promise((resolve) => bouncer.once('exit', resolve))
    }
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
