import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { hasNginx, NGINX, startNginx } from '../../deploy/nginx.mts'
import { runPlaces } from '../support/cli'
import { createTestDatabase, type TestDatabase } from '../support/databases'
import { freePort, startServer, type RunningServer } from '../support/server'
import { waitFor } from '../support/wait'

// deploy/nginx.conf, the example HTTP cache in front of Places, run as written by Debian's nginx in front of the
// built server: it keeps the public GeoJSON and OGC API answers for the routes' s-maxage, answers If-None-Match
// itself, lets the rest through uncached, and shows a write within the freshness rule the file states.

// Where nginx is missing, outside CI, the tests are skipped, saying so; in CI (.ci/run installs it) they run.
/** A GET with these headers, its bytes as they came (node:http neither asks for a coding nor decodes one). */
function raw(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
    })
      .on('error', reject)
      .end()
  })
}

describe('deploy/nginx.conf in front of the server', { skip: !hasNginx() && !process.env.CI && `${NGINX} is not installed (Debian package nginx)` }, () => {
  let db: TestDatabase
  let server: RunningServer
  let nginx: { url: string; stop: () => Promise<void> } | undefined
  let dir: string
  let base: string
  let env: NodeJS.ProcessEnv

  const places = (...args: string[]) => runPlaces(env, ...args)
  const importPlace = async (title: string, type: string) => {
    const file = path.join(dir, `${title}.geojson`)
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [7.4474, 46.948] }, properties: { title, type } }],
      }),
    )
    return Number(await places('import', file, '--author', 'cache@example.org'))
  }

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'places-nginx-'))
    db = await createTestDatabase('sqlite')
    env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') }
    await places('user', 'create', '--email', 'cache@example.org', '--password', 'long enough', '--role', 'editor')
    await importPlace('Bern', 'post')
    server = await startServer({ DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR! })

    nginx = await startNginx({ port: await freePort(), upstream: new URL(server.url).host, dir })
    base = nginx.url
  })

  after(async () => {
    await nginx?.stop()
    await server?.stop()
    await db?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('the public routes are cached: the second request is a HIT with the same bytes and ETag as the app gives', async () => {
    for (const url of ['/places/v1/geojson?post_type=post', '/wp-json/places/v1/geojson?post_type=post&posts_per_page=7', '/places/v1/geojson/1']) {
      const direct = await fetch(`${server.url}${url}`)
      const first = await fetch(`${base}${url}`)
      const second = await fetch(`${base}${url}`)
      assert.equal(first.status, 200, url)
      assert.equal(first.headers.get('x-cache-status'), 'MISS', url)
      assert.equal(second.headers.get('x-cache-status'), 'HIT', url)
      const body = await direct.text()
      assert.equal(await first.text(), body)
      assert.equal(await second.text(), body)
      assert.equal(second.headers.get('etag'), direct.headers.get('etag'))
      assert.equal(second.headers.get('content-type'), 'application/geo+json')
      assert.equal(second.headers.get('access-control-allow-origin'), '*')
    }
  })

  test('If-None-Match with the current ETag is answered 304 by the cache', async () => {
    const url = `${base}/places/v1/geojson?post_type=post&posts_per_page=3`
    const { headers } = await fetch(url)
    const etag = headers.get('etag')!
    const revalidated = await fetch(url, { headers: { 'If-None-Match': etag } })
    assert.equal(revalidated.status, 304)
    assert.equal(revalidated.headers.get('x-cache-status'), 'HIT')
  })

  test('each coding is kept apart (Vary: Accept-Encoding): every client gets the coding it asked for, then a HIT', async () => {
    const url = '/places/v1/geojson?post_type=post&posts_per_page=11'
    const identity = (await raw(`${server.url}${url}`)).body.toString()
    const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const
    // Twice round, alternating: a coding asked after another is still served in its own coding, from the cache.
    for (const round of [1, 2]) {
      for (const coding of ['br', 'gzip', 'identity'] as const) {
        const response = await raw(`${base}${url}`, coding === 'identity' ? {} : { 'Accept-Encoding': coding })
        assert.equal(response.status, 200)
        assert.equal(response.headers['content-encoding'], coding === 'identity' ? undefined : coding, `round ${round}, ${coding}`)
        const text = coding === 'identity' ? response.body.toString() : decode[coding](response.body).toString()
        assert.equal(text, identity, `round ${round}, ${coding}: the same answer`)
        assert.equal(response.headers.etag?.endsWith(coding === 'br' ? '-br"' : coding === 'gzip' ? '-gz"' : '"'), true)
        // Kept: a HIT, or a copy revalidated if its s-maxage ran out meanwhile; never a MISS (another coding's copy
        // pushed it out).
        if (round === 2) assert.match(String(response.headers['x-cache-status']), /^(HIT|REVALIDATED|UPDATING)$/, `round 2, ${coding}`)
        const revalidated = await raw(`${base}${url}`, {
          ...(coding === 'identity' ? {} : { 'Accept-Encoding': coding }),
          'If-None-Match': response.headers.etag,
        })
        assert.equal(revalidated.status, 304, `${coding}: 304 for its own tag`)
      }
    }
  })

  test('the OGC API is cached too, each format and coding apart (Vary: Accept-Encoding, Accept): every client gets its own, then a HIT', async () => {
    const url = '/ogc/collections/post/items?limit=5'
    const formats = [
      { accept: 'application/geo+json', type: 'application/geo+json' },
      // As a browser asks
      { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', type: 'text/html; charset=utf-8' },
    ]
    const direct = await Promise.all(formats.map(async ({ accept }) => (await raw(`${server.url}${url}`, { Accept: accept })).body.toString()))
    assert.match(direct[0]!, /^\{"type":"FeatureCollection"/)
    assert.match(direct[1]!, /^<!DOCTYPE html>/i)
    // Twice round, alternating: a format or coding asked after another is still served as asked, from the cache.
    for (const round of [1, 2]) {
      for (const [i, { accept, type }] of formats.entries()) {
        for (const coding of ['br', 'identity'] as const) {
          const what = `round ${round}, ${accept}, ${coding}`
          const response = await raw(`${base}${url}`, { Accept: accept, ...(coding === 'br' ? { 'Accept-Encoding': 'br' } : {}) })
          assert.equal(response.status, 200)
          assert.equal(response.headers['content-type'], type, what)
          assert.equal(response.headers['content-encoding'], coding === 'br' ? 'br' : undefined, what)
          assert.equal((coding === 'br' ? brotliDecompressSync(response.body) : response.body).toString(), direct[i], `${what}: the app's answer`)
          assert.match(String(response.headers['x-cache-status']), round === 1 ? /^MISS$/ : /^(HIT|REVALIDATED|UPDATING)$/, what)
        }
      }
    }
  })

  test('errors, the protected GPS route and pages are not kept', async () => {
    for (const url of [
      '/places/v1/geojson/999',
      '/places/v1/geojson?posts_per_page=abc',
      '/ogc/collections/post/items/999',
      '/ogc/collections/post/items?limit=abc',
    ]) {
      await fetch(`${base}${url}`)
      const again = await fetch(`${base}${url}`)
      assert.ok(again.status >= 400, url)
      assert.notEqual(again.headers.get('x-cache-status'), 'HIT', url)
    }
    for (const url of ['/places/v1/attachment-exif-gps/1', '/']) {
      const response = await fetch(`${base}${url}`)
      assert.equal(response.headers.get('x-cache-status'), null, `${url} bypasses the cache`)
    }
    assert.equal((await fetch(`${base}/places/v1/attachment-exif-gps/1`)).status, 401)
  })

  test('a write shows through the cache within SHARED_CACHE_SECONDS (1 s), and not before the answer expires', async () => {
    const url = `${base}/places/v1/geojson?post_type=nginxtest`
    const empty = (await (await fetch(url)).json()) as { features: unknown[] }
    assert.deepEqual(empty.features, [])
    const id = await importPlace('Written meanwhile', 'nginxtest')
    const written = Date.now()
    // The app has it at once; the cache until the answer's s-maxage runs out, then at its next request.
    assert.equal(((await (await fetch(`${server.url}/places/v1/geojson?post_type=nginxtest`)).json()) as { features: unknown[] }).features.length, 1)
    await waitFor('the new answer through nginx', async () => {
      const response = await fetch(url)
      const ids = ((await response.json()) as { features: { properties: { id: number } }[] }).features.map((f) => f.properties.id)
      if (ids.includes(id)) {
        assert.notEqual(response.headers.get('x-cache-status'), 'HIT', 'the new answer came from the app')
        return true
      }
      assert.equal(response.headers.get('x-cache-status'), 'HIT', 'the old answer is only ever served from the cache')
      assert.ok(Date.now() - written < 2_000, 'the write shows within 1 s and one request')
      return undefined
    })
  })
})
