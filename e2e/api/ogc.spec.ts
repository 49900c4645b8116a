import { execFileSync } from 'node:child_process'
import { expectWordPressError } from '../support/http'
import { expect, test } from '../support/test'
import { byDateThenIdDesc, expectedUrl, hiddenPosts, publicPlaces } from '../support/places'

// OGC API – Features (/ogc) over the fixture, read by hand and by GDAL's OGC API driver as GIS clients read it.

type OgcFeature = {
  type: 'Feature'
  id: number
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: { title: string; url: string; address: string }
}
type Items = { type: 'FeatureCollection'; features: OgcFeature[]; numberMatched: number; numberReturned: number; links: { href: string; rel: string }[] }

const fixturePosts = (type: string) => publicPlaces.filter((p) => p.type === type).sort(byDateThenIdDesc)

test.describe('OGC API – Features', () => {
  test('landing page, conformance and collections link to each other', async ({ request, baseURL }) => {
    const landing = (await (await request.get('/ogc')).json()) as { links: { href: string; rel: string }[] }
    const rels = Object.fromEntries(landing.links.map((l) => [l.rel, l.href]))
    expect(rels.self).toBe(`${baseURL}/ogc`)
    expect(rels.conformance).toBe(`${baseURL}/ogc/conformance`)
    expect(rels.data).toBe(`${baseURL}/ogc/collections`)
    expect((await request.get(rels['service-desc']!)).status()).toBe(200)
    const conformance = (await (await request.get(rels.conformance!)).json()) as { conformsTo: string[] }
    expect(conformance.conformsTo).toEqual([
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
    ])
    const { collections } = (await (await request.get(rels.data!)).json()) as {
      collections: { id: string; extent: { spatial: { bbox: number[][] } }; links: { rel: string; href: string }[] }[]
    }
    const ids = collections.map((c) => c.id)
    for (const type of ['post', 'landmark']) expect(ids).toContain(type)
    expect(ids).not.toContain('draftonly')
    const landmark = collections.find((c) => c.id === 'landmark')!
    const lngs = fixturePosts('landmark').map((p) => p.coordinates![0])
    const lats = fixturePosts('landmark').map((p) => p.coordinates![1])
    expect(landmark.extent.spatial.bbox[0]).toEqual([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)])
    expect(landmark.links.find((l) => l.rel === 'items')!.href).toBe(`${baseURL}/ogc/collections/landmark/items`)
    expect((await request.get('/ogc/collections/landmark')).status()).toBe(200)
    expect((await request.get('/ogc/collections/nothing-here')).status()).toBe(404)
  })

  test('items: paging with next and prev, numberMatched, only public places, newest first', async ({ request, baseURL }) => {
    const expected = fixturePosts('post')
    let url: string | undefined = `/ogc/collections/post/items?limit=100`
    const seen: OgcFeature[] = []
    let pages = 0
    while (url) {
      const response = await request.get(url)
      expect(response.headers()['content-type']).toMatch(/^application\/geo\+json/)
      const page = (await response.json()) as Items
      expect(page.numberMatched).toBe(expected.length)
      expect(page.numberReturned).toBe(page.features.length)
      if (pages > 0) expect(page.links.some((l) => l.rel === 'prev')).toBe(true)
      seen.push(...page.features)
      url = page.links.find((l) => l.rel === 'next')?.href
      pages++
    }
    expect(pages).toBe(Math.ceil(expected.length / 100))
    expect(seen.map((f) => f.id)).toEqual(expected.map((p) => p.id))
    const first = expected[0]!
    expect(seen[0]).toEqual({
      type: 'Feature',
      id: first.id,
      geometry: { type: 'Point', coordinates: first.coordinates },
      properties: { title: first.title, url: expectedUrl(baseURL!, first), address: first.address },
    })
  })

  test('items: bbox (also across the antimeridian), limit capped at 1000, bad or unknown parameters are 400', async ({ request }) => {
    const inBox = ([w, s, e, n]: readonly [number, number, number, number]) =>
      fixturePosts('post').filter((p) => {
        const [x, y] = p.coordinates!
        return y >= s && y <= n && (w <= e ? x >= w && x <= e : x >= w || x <= e)
      })
    for (const box of [
      [-10, 35, 30, 60],
      [170, -90, -170, 90],
      [-180, -90, 180, 90],
    ] as const) {
      const page = (await (await request.get(`/ogc/collections/post/items?limit=1000&bbox=${box.join(',')}`)).json()) as Items
      expect(
        page.features.map((f) => f.id),
        box.join(','),
      ).toEqual(inBox(box).map((p) => p.id))
    }
    const capped = (await (await request.get('/ogc/collections/post/items?limit=5000')).json()) as Items
    expect(capped.numberReturned).toBe(Math.min(1000, fixturePosts('post').length))
    for (const query of [
      'limit=0',
      'limit=abc',
      'offset=-1',
      'bbox=1,2,3',
      'bbox=0,50,10,40',
      'bbox=a,b,c,d',
      'colour=red',
      'f=xml',
      'constructor=1',
      'toString=1',
    ]) {
      const response = await request.get(`/ogc/collections/post/items?${query}`)
      expect(response.status(), query).toBe(400)
    }
  })

  test('a huge offset is a 400 naming the largest one; the largest is an empty page; a huge limit is capped', async ({ request }) => {
    // Past 2^31 - 1 the offset used to reach the database query and fail there: a 500.
    for (const offset of ['2147483648', '9007199254740993', '99999999999999999999999', '9'.repeat(400)]) {
      const body = await expectWordPressError(await request.get(`/ogc/collections/post/items?offset=${offset}`), 400, 'rest_invalid_param')
      expect(body.data.params, offset.slice(0, 30)).toEqual({ offset: 'offset must be at most 2147483647.' })
    }
    const last = await request.get('/ogc/collections/post/items?offset=2147483647')
    expect(last.status()).toBe(200)
    const page = (await last.json()) as Items
    expect(page.numberReturned).toBe(0)
    expect(page.numberMatched).toBe(fixturePosts('post').length)
    expect(page.links.map((l) => l.rel)).toContain('prev')
    for (const limit of ['2147483648', '99999999999999999999999', '9'.repeat(400)]) {
      const capped = await request.get(`/ogc/collections/post/items?limit=${limit}`)
      expect(capped.status(), limit.slice(0, 30)).toBe(200)
      expect(((await capped.json()) as Items).numberReturned).toBe(Math.min(1000, fixturePosts('post').length))
    }
  })

  test('one item: public places only', async ({ request }) => {
    const place = fixturePosts('landmark')[0]!
    const item = (await (await request.get(`/ogc/collections/landmark/items/${place.id}`)).json()) as OgcFeature
    expect(item.id).toBe(place.id)
    expect(item.geometry.coordinates).toEqual(place.coordinates)
    expect((await request.get(`/ogc/collections/post/items/${place.id}`)).status(), 'in another collection').toBe(404)
    const hidden = hiddenPosts.find((p) => p.type === 'post')!
    expect((await request.get(`/ogc/collections/post/items/${hidden.id}`)).status()).toBe(404)
    expect((await request.get('/ogc/collections/post/items/abc')).status()).toBe(404)
  })

  test('GDAL reads every collection and feature through its OGC API driver, as the routes serve them', async ({ request, baseURL }) => {
    test.skip(!hasOgrinfo() && !process.env.CI, 'ogrinfo (Debian gdal-bin) is not installed; .ci/run installs it, and in CI this test runs')
    const summary = execFileSync('ogrinfo', ['-ro', '-so', `OAPIF:${baseURL}/ogc`], { encoding: 'utf8' })
    for (const type of ['post', 'landmark']) expect(summary).toMatch(new RegExp(`\\b${type}\\b`))
    for (const type of ['landmark', 'post']) {
      const geojson = JSON.parse(
        execFileSync('ogr2ogr', ['-preserve_fid', '-f', 'GeoJSON', '/vsistdout/', `OAPIF:${baseURL}/ogc`, type], {
          encoding: 'utf8',
          maxBuffer: 64 * 1024 * 1024,
        }),
      ) as { features: { id?: number; properties: { title: string; url: string; address: string }; geometry: { coordinates: number[] } }[] }
      // GDAL keeps an OGC feature's id as the feature's own id (its FID), as GeoJSON does.
      const read = geojson.features
        .map((f) => ({
          id: Number(f.id),
          title: f.properties.title,
          url: f.properties.url,
          address: f.properties.address,
          coordinates: f.geometry.coordinates,
        }))
        .sort((a, b) => a.id - b.id)
      const routes = (await (await request.get(`/places/v1/geojson?post_type=${type}&posts_per_page=-1`)).json()) as {
        features: { properties: { id: number; title: string; url: string; address: string }; geometry: { coordinates: number[] } }[]
      }
      const expected = fixturePosts(type)
        .map((p) => ({ id: p.id, title: p.title, url: expectedUrl(baseURL!, p), address: p.address, coordinates: p.coordinates! }))
        .sort((a, b) => a.id - b.id)
      expect(read).toEqual(expected)
      // What GDAL read is what the public route serves (the route's page is capped at 500).
      for (const feature of routes.features) {
        const same = read.find((r) => r.id === feature.properties.id)
        expect(same, `GDAL read feature ${feature.properties.id}`).toBeTruthy()
        expect(same!.coordinates).toEqual(feature.geometry.coordinates)
        expect(same!.title).toBe(feature.properties.title)
      }
    }
  })
})

function hasOgrinfo(): boolean {
  try {
    execFileSync('ogrinfo', ['--version'])
    return true
  } catch {
    return false
  }
}
