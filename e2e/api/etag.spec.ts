import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { APIRequestContext } from '@playwright/test'
import { expectCors, expectWordPressError, PREFIXES } from '../support/http'
import { expectedIds, normaliseFeature, type Feature } from '../support/places'
import { expect, test } from '../support/test'

// docs/api.md, Caching: the geojson routes send an ETag that changes whenever any data they depend on changes, and
// answer If-None-Match with 304.
//
// Its last test writes (one `places import` of a post of its own type, `etagtest`). Other spec files write too, in
// the other worker, so every comparison of ETags across requests here is retried until no write fell between them.

const ROOT = path.resolve(__dirname, '..', '..')
const WRITE_TYPE = 'etagtest'
const ETAG_SYNTAX = /^(W\/)?"[\x21\x23-\x7e\x80-\xff]*"$/

test.describe.configure({ mode: 'default' })

async function etagOf(request: APIRequestContext, url: string): Promise<string> {
  const response = await request.get(url)
  expect(response.status(), url).toBe(200)
  const etag = response.headers().etag
  expect(etag, `ETag of ${url}`).toBeTruthy()
  return etag!
}

async function expectNotModified(request: APIRequestContext, url: string, ifNoneMatch: string, etag: string): Promise<void> {
  const response = await request.get(url, { headers: { 'If-None-Match': ifNoneMatch } })
  expect(response.status(), `${url} with If-None-Match: ${ifNoneMatch}`).toBe(304)
  expect((await response.body()).length, '304 has no body').toBe(0)
  expect(response.headers().etag, 'a 304 repeats the ETag').toBe(etag)
  expectCors(response)
}

test.describe('ETag and If-None-Match', () => {
  const urls = (prefix: string) => [`${prefix}/geojson`, `${prefix}/geojson?post_type=landmark&posts_per_page=2`, `${prefix}/geojson/1001`]

  test('both routes send an ETag, in the syntax of RFC 9110', async ({ request }) => {
    for (const prefix of PREFIXES) {
      for (const url of urls(prefix)) expect(await etagOf(request, url), url).toMatch(ETAG_SYNTAX)
    }
  })

  test('neither the ETag nor /healthz tells how many writes there were', async ({ request }) => {
    // Opaque: a keyed hash, not a count of writes that would show how busy the editors are, drafts included (and the
    // coding's suffix: Playwright asks for br, docs/api.md, Compression).
    for (const url of urls('/places/v1')) expect(await etagOf(request, url), url).toMatch(/^"[A-Za-z0-9_-]{22}(-br|-gz)?"$/)
    const health = await request.get('/healthz')
    expect(health.status()).toBe(200)
    expect(await health.json()).toEqual({
      status: 'ok',
      database: { dialect: expect.any(String), ok: true },
      media: { storage: 'disk', ok: true },
      build: { id: expect.any(String), newest: true },
    })
  })

  // Other spec files import posts while these run (two workers): a comparison of ETags across requests is retried
  // until no write fell between them, and must then hold.
  test('the ETag stays the same while nothing changes, and /wp-json serves the same one', async ({ request }) => {
    for (const url of urls('/places/v1')) {
      await expect(async () => {
        const first = await etagOf(request, url)
        expect(await etagOf(request, url), url).toBe(first)
        expect(await etagOf(request, `/wp-json${url}`), `/wp-json${url}`).toBe(first)
      }).toPass({ timeout: 30_000 })
    }
  })

  for (const prefix of PREFIXES) {
    test(`${prefix}: If-None-Match with the current ETag is a 304 without a body`, async ({ request }) => {
      for (const url of urls(prefix)) {
        await expect(async () => {
          const etag = await etagOf(request, url)
          await expectNotModified(request, url, etag, etag)
        }).toPass({ timeout: 30_000 })
      }
    })
  }

  test('the weak form W/"…" of the ETag matches too (weak comparison for GET)', async ({ request }) => {
    for (const url of urls('/places/v1')) {
      await expect(async () => {
        const etag = await etagOf(request, url)
        const weak = etag.startsWith('W/') ? etag : `W/${etag}`
        await expectNotModified(request, url, weak, etag)
        const strong = etag.replace(/^W\//, '')
        await expectNotModified(request, url, strong, etag)
      }).toPass({ timeout: 30_000 })
    }
  })

  test('a list of ETags that contains the current one matches; so does *', async ({ request }) => {
    for (const url of urls('/places/v1')) {
      await expect(async () => {
        const etag = await etagOf(request, url)
        await expectNotModified(request, url, `"stale-1", ${etag}, W/"stale-2"`, etag)
        await expectNotModified(request, url, `"stale-1",${etag}`, etag)
        await expectNotModified(request, url, '*', etag)
      }).toPass({ timeout: 30_000 })
    }
  })

  test('an ETag that does not match gets the full 200 answer', async ({ request }) => {
    for (const ifNoneMatch of ['"something-else"', 'W/"something-else"', '"a", "b"', '']) {
      const response = await request.get('/places/v1/geojson', { headers: { 'If-None-Match': ifNoneMatch } })
      expect(response.status(), ifNoneMatch).toBe(200)
      const body = await response.json()
      expect(body.features.map((f: Feature) => f.properties.id)).toEqual(expectedIds())
      expect(response.headers().etag).toBeTruthy()
    }
  })

  test('an error is still the error with a matching If-None-Match (a 304 is only for what would be a 200)', async ({ request }) => {
    const etag = await etagOf(request, '/places/v1/geojson/1001')
    await expectWordPressError(await request.get('/places/v1/geojson/999999', { headers: { 'If-None-Match': etag } }), 404, 'rest_post_invalid_id')
    await expectWordPressError(await request.get('/places/v1/geojson/1025', { headers: { 'If-None-Match': etag } }), 404, 'rest_no_geodata')
    const collectionEtag = await etagOf(request, '/places/v1/geojson')
    await expectWordPressError(
      await request.get('/places/v1/geojson?posts_per_page=abc', { headers: { 'If-None-Match': collectionEtag } }),
      400,
      'rest_invalid_param',
    )
  })

  // Last, as it writes: a new place of a type no other spec reads, through the real command line.
  test('after `places import`, the ETag changes: the old one gets a 200 with the new data', async ({ request, databaseUrl, baseURL }) => {
    const typeUrl = `/places/v1/geojson?post_type=${WRITE_TYPE}`
    let typeEtag = ''
    let defaultEtag = ''
    let featureEtag = ''
    await expect(async () => {
      const before = await request.get(typeUrl)
      expect(before.status()).toBe(200)
      expect((await before.json()).features).toEqual([])
      typeEtag = before.headers().etag!
      defaultEtag = await etagOf(request, '/places/v1/geojson')
      featureEtag = await etagOf(request, '/places/v1/geojson/1001')
      await expectNotModified(request, typeUrl, typeEtag, typeEtag)
    }).toPass({ timeout: 30_000 })

    const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-etag-'))
    let newId: number
    try {
      const file = path.join(dir, 'etag.geojson')
      const title = 'ETag test place'
      await writeFile(
        file,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              geometry: { type: 'Point', coordinates: [7.4474, 46.948] },
              properties: { title, slug: 'etag-test-place', type: WRITE_TYPE, date: '2024-01-01T00:00:00Z', address: 'Bern' },
            },
          ],
        }),
      )
      const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin', 'places.mjs'), 'import', file], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: '1' },
      })
      const printed = stdout.trim().split('\n')
      expect(printed, 'places import prints the new id').toHaveLength(1)
      newId = Number(printed[0])
      expect(Number.isInteger(newId) && newId > 0, `id printed: ${stdout}`).toBe(true)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }

    // The collection of that type changed: its old ETag no longer matches, and the new place is in the 200.
    const after = await request.get(typeUrl, { headers: { 'If-None-Match': typeEtag } })
    expect(after.status()).toBe(200)
    expect(after.headers().etag).toBeTruthy()
    expect(after.headers().etag).not.toBe(typeEtag)
    expect((await after.json()).features.map(normaliseFeature)).toEqual([
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [7.4474, 46.948] },
        properties: { id: newId, title: 'ETag test place', url: new URL(`${baseURL}/${WRITE_TYPE}/etag-test-place`).href, address: 'Bern' },
      },
    ])
    await expectNotModified(request, typeUrl, after.headers().etag!, after.headers().etag!)

    // The new place is served by id, and through the alias.
    expect((await request.get(`/places/v1/geojson/${newId}`)).status()).toBe(200)
    const aliased = await request.get(`/wp-json/places/v1/geojson?post_type=${WRITE_TYPE}`, { headers: { 'If-None-Match': typeEtag } })
    expect(aliased.status()).toBe(200)

    // By design every write bumps one data version that all public ETags carry (lib/places/public.ts), so the
    // ETags of answers the import did not touch move too; the bodies stay the same.
    const defaultAfter = await request.get('/places/v1/geojson', { headers: { 'If-None-Match': defaultEtag } })
    expect(defaultAfter.status()).toBe(200)
    expect(defaultAfter.headers().etag).not.toBe(defaultEtag)
    expect((await defaultAfter.json()).features.map((f: Feature) => f.properties.id)).toEqual(expectedIds())
    const featureAfter = await request.get('/places/v1/geojson/1001', { headers: { 'If-None-Match': featureEtag } })
    expect(featureAfter.status()).toBe(200)
    expect(featureAfter.headers().etag).not.toBe(featureEtag)
  })
})
