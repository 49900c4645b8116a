import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { runPlaces } from '../support/cli'
import { createTestDatabase, type TestDatabase } from '../support/databases'
import { SERVE_KEEP_ALIVE_MS, startServer, type RunningServer } from '../support/server'

// Kept-alive connections to `next start` (lib/http/unread-body.ts): one the server advertises as kept alive for N s
// (`Keep-Alive: timeout=N`) answers a request sent on it just before then, whatever the answer before it was; an
// answer that leaves a request's body read in part says `Connection: close`. Requests go through one socket at a
// time (an http.Agent with keepAlive and maxSockets 1), so a socket the server has given up on is reused, and fails.

const PHOTO = readFileSync(path.join('test', 'fixtures', 'exif', 'gox_gps.jpg'))
/** The photo fits; three times as much does not. */
const UPLOAD_LIMIT = PHOTO.length + 1024

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string; reusedSocket: boolean }

function send(agent: http.Agent, url: string, options: http.RequestOptions = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { agent, ...options }, (response) => {
      let text = ''
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text, reusedSocket: request.reusedSocket }))
    })
    request.on('error', (error) => reject(new Error(`${options.method ?? 'GET'} ${url}${request.reusedSocket ? ' on a reused socket' : ''}: ${error.message}`)))
    request.end(body)
  })
}

/** The seconds the server says it keeps an idle connection open (Keep-Alive: timeout=N). */
function advertisedTimeout(answer: Answer): number {
  assert.equal(answer.headers.connection, 'keep-alive')
  return Number(/timeout=(\d+)/.exec(String(answer.headers['keep-alive']))?.[1])
}

// The server of these tests keeps idle connections KEEP_ALIVE_MS, so that waiting out the timeout takes seconds; the
// keep-alive of `npm run serve` is checked on its own server, once.
const KEEP_ALIVE_MS = 5000

test('npm run serve advertises a keep-alive longer than nginx keeps its upstream connections (60 s)', async () => {
  const db = await createTestDatabase('sqlite')
  const server = await startServer({ DATABASE_URL: db.url, LOG_REQUESTS: 'false' })
  const agent = new http.Agent({ keepAlive: true })
  try {
    assert.equal(SERVE_KEEP_ALIVE_MS, 65_000)
    assert.equal(advertisedTimeout(await send(agent, `${server.url}/healthz`)), 65)
  } finally {
    agent.destroy()
    await server.stop()
    await db.drop()
  }
})

describe('kept-alive connections', () => {
  let db: TestDatabase
  let server: RunningServer
  let authorization: string
  let postId: string
  let dir: string

  before(async () => {
    db = await createTestDatabase('sqlite')
    dir = mkdtempSync(path.join(tmpdir(), 'places-keep-alive-'))
    const env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') }
    await runPlaces(env, 'user', 'create', '--email', 'keep@example.org', '--password', 'long enough', '--role', 'editor')
    const secret = (await runPlaces(env, 'app-password', 'create', '--user', 'keep@example.org')).split('\n').at(-1)!
    authorization = `Basic ${Buffer.from(`keep@example.org:${secret}`).toString('base64')}`
    writeFileSync(
      path.join(dir, 'post.geojson'),
      JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { title: 'Uploads' } }] }),
    )
    postId = await runPlaces(env, 'import', path.join(dir, 'post.geojson'), '--author', 'keep@example.org')
    server = await startServer(
      { DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR, UPLOAD_MAX_BYTES: String(UPLOAD_LIMIT), LOG_REQUESTS: 'false' },
      { keepAliveMs: KEEP_ALIVE_MS },
    )
  })
  after(async () => {
    await server.stop()
    await db.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('a connection idle for just under the advertised timeout is still served', { timeout: 60_000 }, async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    try {
      const first = await send(agent, `${server.url}/healthz`)
      assert.equal(first.status, 200)
      assert.equal(advertisedTimeout(first), KEEP_ALIVE_MS / 1000)
      // The wait is what is tested: a client may keep the socket this long (undici's fetch keeps it N s minus 1 s).
      await sleep(KEEP_ALIVE_MS - 250)
      const second = await send(agent, `${server.url}/healthz`)
      assert.equal(second.status, 200)
      assert.equal(second.reusedSocket, true)
    } finally {
      agent.destroy()
    }
  })

  // What the server answers before, or while, reading a body; each followed on the same agent by GET /healthz.
  const answers: { name: string; status: number; path: () => string; options: () => http.RequestOptions; body: Buffer; closes: boolean }[] = [
    {
      name: 'an upload refused half-way, over the size limit',
      status: 413,
      path: () => `/places/v1/media?post=${postId}`,
      options: () => ({ method: 'POST', headers: { authorization, 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="big.jpg"' } }),
      body: Buffer.concat([PHOTO, Buffer.alloc(3 * UPLOAD_LIMIT)]),
      closes: true,
    },
    {
      name: 'an upload that is not an image, read whole',
      status: 415,
      path: () => `/places/v1/media?post=${postId}`,
      options: () => ({ method: 'POST', headers: { authorization, 'content-type': 'image/jpeg' } }),
      body: Buffer.alloc(PHOTO.length, 'a'),
      closes: false,
    },
    {
      name: 'an upload accepted',
      status: 201,
      path: () => `/places/v1/media?post=${postId}`,
      options: () => ({ method: 'POST', headers: { authorization, 'content-type': 'image/jpeg', 'content-disposition': 'attachment; filename="photo.jpg"' } }),
      body: PHOTO,
      closes: false,
    },
    {
      name: 'an upload without credentials',
      status: 401,
      path: () => `/places/v1/media?post=${postId}`,
      options: () => ({ method: 'POST', headers: { 'content-type': 'image/jpeg' } }),
      body: PHOTO,
      closes: false,
    },
    {
      name: 'a sign-in form refused for its length before it is read',
      status: 413,
      path: () => '/api/auth/callback/credentials',
      options: () => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      body: Buffer.alloc(20_000, 'a'),
      closes: false,
    },
    {
      name: 'a streamed collection',
      status: 200,
      path: () => '/places/v1/geojson?posts_per_page=100',
      options: () => ({}),
      body: Buffer.alloc(0),
      closes: false,
    },
  ]

  for (const answer of answers) {
    test(`after ${answer.name} (${answer.status}), the next request on that connection is answered`, { timeout: 60_000 }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const first = await send(agent, `${server.url}${answer.path()}`, answer.options(), answer.body)
        assert.equal(first.status, answer.status, first.body)
        const next = await send(agent, `${server.url}/healthz`)
        assert.equal(next.status, 200)
        if (answer.closes) assert.equal(first.headers.connection, 'close', 'the body was left unread: the connection is not kept')
        else assert.equal(advertisedTimeout(first), KEEP_ALIVE_MS / 1000)
        assert.equal(next.reusedSocket, !answer.closes)
      } finally {
        agent.destroy()
      }
    })
  }
})
