import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { runPlaces } from '../support/cli'
import { createTestDatabase, type TestDatabase } from '../support/databases'
import { startServer, type RunningServer } from '../support/server'
import { waitFor } from '../support/wait'

// Operating the server: the health endpoint, the request log, and a shutdown that finishes requests in flight.

describe('operations', () => {
  let db: TestDatabase
  let server: RunningServer
  let authorization: string
  let postId: string

  before(async () => {
    db = await createTestDatabase('sqlite')
    const env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(path.dirname(db.url.slice(5)), 'uploads') }
    const places = (...args: string[]) => runPlaces(env, ...args)
    await places('user', 'create', '--email', 'ops@example.org', '--password', 'long enough', '--role', 'editor')
    const secret = (await places('app-password', 'create', '--user', 'ops@example.org')).split('\n').at(-1)!
    authorization = `Basic ${Buffer.from(`ops@example.org:${secret}`).toString('base64')}`
    const file = path.join(path.dirname(db.url.slice(5)), 'post.geojson')
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { title: 'Slow upload' } }] }))
    postId = await places('import', file, '--author', 'ops@example.org')
    server = await startServer({ DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR })
  })
  after(async () => {
    await server.stop()
    await db.drop()
  })

  test('GET /healthz says the server is ready and the database answers', async () => {
    // startServer waited for this 200; before it, the server answered 503 "starting" (test/db/health.test.ts).
    const response = await fetch(`${server.url}/healthz`)
    assert.equal(response.status, 200)
    const body = (await response.json()) as { status: string; database: { ok: boolean; dialect: string } }
    assert.equal(body.status, 'ok')
    assert.deepEqual([body.database.ok, body.database.dialect], [true, 'sqlite'])
  })

  test('each API request is logged as one JSON line, without query strings or credentials', async () => {
    await fetch(`${server.url}/places/v1/geojson?posts_per_page=3&secret=hunter2`)
    await fetch(`${server.url}/places/v1/attachment-exif-gps/${postId}`, { headers: { Authorization: authorization } })
    type Entry = { method: string; path: string; status: number; ms: number; time: string }
    // A request's line is written as its answer goes out: wait until both are in the server's output.
    const entries = await waitFor('both requests in the log', () => {
      const logged = server.output.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Entry)
      return logged.some((e) => e.path === '/places/v1/geojson') && logged.some((e) => e.path.startsWith('/places/v1/attachment-exif-gps/'))
        ? logged
        : undefined
    })
    const collection = entries.find((e) => e.path === '/places/v1/geojson')
    assert.ok(collection, 'the collection request is logged')
    assert.equal(collection.method, 'GET')
    assert.equal(collection.status, 200)
    assert.ok(collection.ms >= 0 && !Number.isNaN(Date.parse(collection.time)))
    assert.ok(entries.some((e) => e.path === `/places/v1/attachment-exif-gps/${postId}` && e.status === 404))
    const all = server.output.join('\n')
    assert.doesNotMatch(all, /hunter2/)
    assert.doesNotMatch(all, new RegExp(authorization.slice(6, 30)))
  })

  test('SIGTERM: the upload in flight finishes, new connections are refused, the server exits', async () => {
    const photo = readFileSync(path.join('test', 'fixtures', 'exif', 'gox_gps.jpg'))
    const url = new URL(`${server.url}/places/v1/media?post=${postId}`)
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            Authorization: authorization,
            'Content-Type': 'image/jpeg',
            'Content-Disposition': 'attachment; filename="slow.jpg"',
            'Content-Length': photo.length,
          },
        },
        (response) => {
          let body = ''
          response
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => resolve({ status: response.statusCode!, body }))
        },
      )
      request.on('error', reject)
      // The photo trickles in over about two seconds; the server is told to stop once it has begun to store it.
      const chunks = 20
      let sent = 0
      const timer = setInterval(() => {
        const end = Math.ceil(((sent + 1) * photo.length) / chunks)
        request.write(photo.subarray(Math.ceil((sent * photo.length) / chunks), end))
        if (++sent === chunks) {
          clearInterval(timer)
          request.end()
        }
      }, 100)
    })
    const incoming = path.join(path.dirname(db.url.slice('file:'.length)), 'uploads', 'incoming')
    await waitFor('the upload to be coming in', () => (existsSync(incoming) && readdirSync(incoming).length > 0 ? true : undefined))
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)))
    server.process.kill('SIGTERM')
    // Once it has taken the signal in, the server accepts no new connection (asked until it refuses, not after a
    // pause), while the upload in flight goes on.
    let answered = false
    void answer.then(
      () => (answered = true),
      () => (answered = true),
    )
    await waitFor('the server to refuse new connections', () =>
      fetch(`${server.url}/healthz`).then(
        () => undefined,
        () => true,
      ),
    )
    assert.equal(answered, false, 'refused while the upload was still coming in')
    const { status, body } = await answer
    assert.equal(status, 201, body)
    assert.equal((JSON.parse(body) as { title: string }).title, 'slow')
    assert.notEqual(await exited, null)
  })
})
