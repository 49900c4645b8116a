import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { expect, test } from '../support/test'

// docs/api.md, Compression: the cached public answers in br, gzip or identity as Accept-Encoding asks, each coding
// with its own ETag, `Vary: Accept-Encoding`, 304 and HEAD as before. Read with node:http, which neither asks for a
// coding nor decodes one (Playwright's request does both): the bytes on the wire.
//
// Other spec files write meanwhile (two workers): comparisons across requests are retried until no write fell between
// them, as e2e/api/etag.spec.ts does.

type Raw = { status: number; headers: IncomingHttpHeaders; body: Buffer }

function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end()
  })
}

function decoded({ headers, body }: Raw): string {
  const coding = headers['content-encoding']
  if (coding === 'br') return brotliDecompressSync(body).toString()
  if (coding === 'gzip') return gunzipSync(body).toString()
  expect(coding, 'no other coding').toBeUndefined()
  return body.toString()
}

const varyOf = (response: Raw) => (response.headers.vary ?? '').split(',').map((name) => name.trim().toLowerCase())
/** The identity's ETag of a coding's: without its `-br` or `-gz`. */
const identityTag = (etag: string) => etag.replace(/-(br|gz)"$/, '"')

// Every cached public answer, each kind once: the REST collection and feature (at both prefixes), the REST index, and
// the OGC API's JSON and HTML, the feeds.
const URLS = [
  '/places/v1/geojson?posts_per_page=500',
  '/wp-json/places/v1/geojson?posts_per_page=20&_embed',
  '/places/v1/geojson/1001',
  '/places/v1/geojson?cluster=true&zoom=2',
  '/wp-json',
  '/ogc/collections/post/items?limit=100',
  '/ogc/collections/post/items?limit=10&f=html',
  '/ogc/conformance',
  '/feed',
  '/feed/atom',
]

test.describe('Compression of the public answers', () => {
  for (const url of URLS) {
    test(`${url}: br, gzip and identity decode to the same bytes, each with its own ETag`, async ({ baseURL }) => {
      await expect(async () => {
        const identity = await raw(`${baseURL}${url}`)
        const br = await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'br' })
        const gzip = await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'gzip' })
        for (const response of [identity, br, gzip]) {
          expect(response.status, url).toBe(200)
          expect(varyOf(response), 'Vary').toContain('accept-encoding')
          expect(response.headers['access-control-allow-origin'], 'CORS').toBe('*')
          expect(response.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+$/)
          // Next.js sends the compressed bytes' own length, or chunks them: never the identity's length.
          if (response.headers['content-length']) expect(Number(response.headers['content-length'])).toBe(response.body.length)
        }
        expect(identity.headers['content-encoding'], 'no Accept-Encoding: identity').toBeUndefined()
        expect(br.headers['content-encoding']).toBe('br')
        expect(gzip.headers['content-encoding']).toBe('gzip')
        const etag = identity.headers.etag!
        expect(br.headers.etag).toBe(etag.replace(/"$/, '-br"'))
        expect(gzip.headers.etag).toBe(etag.replace(/"$/, '-gz"'))
        // Retried if a write fell between the requests (a new version, other bytes).
        expect(identityTag(br.headers.etag!)).toBe(etag)
        expect(identityTag(gzip.headers.etag!)).toBe(etag)
        const text = identity.body.toString()
        expect(decoded(br), 'br decodes to the identity').toBe(text)
        expect(decoded(gzip), 'gzip decodes to the identity').toBe(text)
        expect(br.headers['content-type']).toBe(identity.headers['content-type'])
      }).toPass({ timeout: 30_000 })
    })
  }

  test('the 500 page is at least five times smaller in br and in gzip', async ({ baseURL }) => {
    const url = `${baseURL}/places/v1/geojson?posts_per_page=500`
    const identity = await raw(url)
    const features = (JSON.parse(identity.body.toString()) as { features: unknown[] }).features.length
    expect(features, 'the api dataset has enough places for a page that means something').toBeGreaterThan(20)
    for (const coding of ['br', 'gzip']) {
      const encoded = await raw(url, { 'Accept-Encoding': coding })
      expect(encoded.body.length * 5, `${coding}: ${encoded.body.length} bytes of ${identity.body.length}`).toBeLessThanOrEqual(identity.body.length)
    }
  })

  test('Accept-Encoding as RFC 9110 reads it: q-values, identity, * and what is not offered', async ({ baseURL }) => {
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      ['*', 'br'],
      ['gzip;q=0, *', 'br'],
      // Not offered; nor does Next.js's own compression deflate the identity answer (it would, with the identity's ETag).
      ['deflate', undefined],
      // Refuses even identity, and accepts nothing offered: identity all the same.
      ['identity;q=0', undefined],
      ['', undefined],
    ]
    for (const [header, coding] of cases) {
      const response = await raw(`${baseURL}/places/v1/geojson?posts_per_page=100`, { 'Accept-Encoding': header })
      expect(response.status, header).toBe(200)
      expect(response.headers['content-encoding'], `Accept-Encoding: ${header}`).toBe(coding)
      JSON.parse(decoded(response))
    }
  })

  for (const url of ['/places/v1/geojson?posts_per_page=50', '/wp-json/places/v1/geojson/1001', '/ogc/collections/post/items?limit=5', '/wp-json', '/feed']) {
    test(`${url}: 304 in each coding, and a tag of a coding not accepted is no match`, async ({ baseURL }) => {
      await expect(async () => {
        const tags = {
          br: (await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'br' })).headers.etag!,
          gzip: (await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'gzip' })).headers.etag!,
          identity: (await raw(`${baseURL}${url}`)).headers.etag!,
        }
        expect(new Set(Object.values(tags)).size, 'three tags').toBe(3)
        for (const [coding, etag] of Object.entries(tags)) {
          const acceptEncoding = coding === 'identity' ? 'identity' : coding
          const response = await raw(`${baseURL}${url}`, { 'Accept-Encoding': acceptEncoding, 'If-None-Match': etag })
          expect(response.status, `${coding} with its own tag`).toBe(304)
          expect(response.body.length).toBe(0)
          expect(response.headers.etag, 'the 304 names the tag that matched').toBe(etag)
          expect(varyOf(response)).toContain('accept-encoding')
          expect(response.headers['access-control-allow-origin']).toBe('*')
        }
        // A client whose copy is gzip and that now takes gzip and br: its copy is current (it accepts gzip).
        const kept = await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'gzip, br', 'If-None-Match': tags.gzip })
        expect(kept.status).toBe(304)
        expect(kept.headers.etag).toBe(tags.gzip)
        // A copy in a coding the client does not take is no copy it can use: the answer in one it does.
        const other = await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'br, identity;q=0', 'If-None-Match': tags.gzip })
        expect(other.status).toBe(200)
        expect(other.headers['content-encoding']).toBe('br')
        expect(other.headers.etag).toBe(tags.br)
        // Several tags, as a cache holding several copies sends them: the 304 names the one to use.
        const several = await raw(`${baseURL}${url}`, { 'Accept-Encoding': 'br', 'If-None-Match': `${tags.gzip}, ${tags.br}` })
        expect(several.status).toBe(304)
        expect(several.headers.etag).toBe(tags.br)
      }).toPass({ timeout: 30_000 })
    })
  }

  test('HEAD: the headers of the GET in that coding, no body; 304 as GET', async ({ baseURL }) => {
    const url = `${baseURL}/places/v1/geojson?posts_per_page=200`
    await expect(async () => {
      const get = await raw(url, { 'Accept-Encoding': 'br' })
      const head = await raw(url, { 'Accept-Encoding': 'br' }, 'HEAD')
      expect(head.status).toBe(200)
      expect(head.body.length).toBe(0)
      for (const name of ['content-encoding', 'etag', 'vary', 'content-type', 'cache-control']) expect(head.headers[name], name).toBe(get.headers[name])
      const notModified = await raw(url, { 'Accept-Encoding': 'br', 'If-None-Match': get.headers.etag! }, 'HEAD')
      expect(notModified.status).toBe(304)
    }).toPass({ timeout: 30_000 })
  })

  test("the OGC API's Vary names both Accept and Accept-Encoding", async ({ baseURL }) => {
    const requests: Record<string, string>[] = [{}, { 'Accept-Encoding': 'br' }, { Accept: 'text/html', 'Accept-Encoding': 'gzip' }]
    for (const headers of requests) {
      const response = await raw(`${baseURL}/ogc/collections`, headers)
      expect(response.status).toBe(200)
      expect(varyOf(response)).toEqual(expect.arrayContaining(['accept', 'accept-encoding']))
      expect(
        varyOf(response).filter((name) => name === 'accept-encoding'),
        'named once',
      ).toHaveLength(1)
    }
  })

  test('errors and the protected route are not in the public cache: no ETag, never public', async ({ baseURL }) => {
    const missing = await raw(`${baseURL}/places/v1/geojson/999999`, { 'Accept-Encoding': 'br' })
    expect(missing.status).toBe(404)
    expect(missing.headers.etag).toBeUndefined()
    expect(JSON.parse(decoded(missing))).toMatchObject({ code: 'rest_post_invalid_id' })
    const gps = await raw(`${baseURL}/places/v1/attachment-exif-gps/1001`, { 'Accept-Encoding': 'br, gzip' })
    expect(gps.status).toBe(401)
    expect(gps.headers['cache-control']).toBe('private, no-store')
    expect(gps.headers.etag).toBeUndefined()
  })
})
