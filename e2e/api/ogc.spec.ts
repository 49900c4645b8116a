import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { expectWordPressError } from '../support/http'
import { expect, test } from '../support/test'
import { byDateThenIdDesc, expectedUrl, hiddenPosts, publicPlaces } from '../support/places'
import { places, runId } from '../support/places-cli'

// OGC API – Features (/ogc) over the fixture, read by hand and by GDAL's OGC API driver as GIS clients read it.

type OgcFeature = {
  type: 'Feature'
  id: number
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: { title: string; url: string; address: string; date: string }
}
type Items = { type: 'FeatureCollection'; features: OgcFeature[]; numberMatched: number; numberReturned: number; links: { href: string; rel: string }[] }

const fixturePosts = (type: string) => publicPlaces.filter((p) => p.type === type).sort(byDateThenIdDesc)

test.describe('OGC API – Features', () => {
  /** A trip of one line and no posts, of this run: the collection `trips` has a feature to serve. */
  let trip: { id: number; title: string }

  test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-ogc-'))
    try {
      const title = `OGC walk ${runId()}`
      const kml = path.join(dir, 'walk.kml')
      await writeFile(
        kml,
        `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>${title}</name><LineString><coordinates>12.48,41.89 12.49,41.90 12.50,41.90</coordinates></LineString></Placemark></kml>`,
      )
      const server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
      await places(server, 'import', kml)
      const trips = JSON.parse(await places(server, 'trip', 'list', '--json')) as { id: number; title: string }[]
      trip = trips.find((t) => t.title === title)!
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  test('landing page, conformance and collections link to each other', async ({ request, baseURL }) => {
    const landing = (await (await request.get('/ogc')).json()) as { links: { href: string; rel: string; type?: string }[] }
    const rels = Object.fromEntries(landing.links.map((l) => [l.rel, l.href]))
    expect(rels.self).toBe(`${baseURL}/ogc`)
    expect(rels.conformance).toBe(`${baseURL}/ogc/conformance`)
    expect(rels.data).toBe(`${baseURL}/ogc/collections`)
    // The API definition: the OGC API's own in OpenAPI 3.0, and the whole site's in 3.1; each answers as its type says.
    const definitions = landing.links.filter((l) => l.rel === 'service-desc')
    expect(definitions.map((l) => [l.href, l.type])).toEqual([
      [`${baseURL}/ogc/api`, 'application/vnd.oai.openapi+json;version=3.0'],
      [`${baseURL}/places/v1/openapi.json`, 'application/vnd.oai.openapi+json;version=3.1'],
    ])
    for (const definition of definitions) {
      const response = await request.get(definition.href)
      expect(response.status()).toBe(200)
      expect(((await response.json()) as { openapi: string }).openapi).toBe(definition.type!.endsWith('3.0') ? '3.0.3' : '3.1.0')
    }
    expect((await request.get('/ogc/api')).headers()['content-type']).toBe('application/vnd.oai.openapi+json;version=3.0')
    const conformance = (await (await request.get(rels.conformance!)).json()) as { conformsTo: string[] }
    expect(conformance.conformsTo).toEqual([
      'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core',
      'http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/collections',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
    ])
    const { collections } = (await (await request.get(rels.data!)).json()) as {
      collections: { id: string; extent: { spatial: { bbox: number[][] }; temporal: { interval: string[][] } }; links: { rel: string; href: string }[] }[]
    }
    const ids = collections.map((c) => c.id)
    for (const type of ['post', 'landmark']) expect(ids).toContain(type)
    expect(ids).not.toContain('draftonly')
    const landmark = collections.find((c) => c.id === 'landmark')!
    const lngs = fixturePosts('landmark').map((p) => p.coordinates![0])
    const lats = fixturePosts('landmark').map((p) => p.coordinates![1])
    expect(landmark.extent.spatial.bbox[0]).toEqual([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)])
    const dates = fixturePosts('landmark').map((p) => p.date)
    expect(landmark.extent.temporal.interval).toEqual([[new Date(Math.min(...dates)).toISOString(), new Date(Math.max(...dates)).toISOString()]])
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
      properties: { title: first.title, url: expectedUrl(baseURL!, first), address: first.address, date: new Date(first.date).toISOString() },
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
    // A bad f is named beside the other bad parameters, as they are beside each other.
    const both = await expectWordPressError(await request.get('/ogc/collections/post/items?f=xml&limit=0'), 400, 'rest_invalid_param')
    expect(both.data.params).toEqual({ f: 'f must be json, geojson or html.', limit: 'limit must be an integer of at least 1.' })
  })

  test('items: datetime — an instant, a day, intervals open at either end, with bbox and paging; bad ones are 400', async ({ request }) => {
    const posts = fixturePosts('post')
    const within = (start: number, end: number) => posts.filter((p) => p.date >= start && p.date <= end)
    // A date two posts share, so that an instant matches more than one.
    const shared = posts.find((p, i) => posts.findIndex((q) => q.date === p.date) !== i)!.date
    const iso = (at: number) => new Date(at).toISOString()
    const day = Date.parse(iso(shared).slice(0, 10))
    const middle = posts[Math.floor(posts.length / 2)]!.date
    const older = posts[Math.floor((posts.length * 3) / 4)]!.date
    const cases: [string, typeof posts][] = [
      [iso(shared), within(shared, shared)],
      [iso(shared).replace('.000Z', '+00:00'), within(shared, shared)],
      [iso(shared).slice(0, 10), within(day, day + 86_400_000 - 1)],
      [`${iso(middle)}/..`, within(middle, Infinity)],
      [`../${iso(middle)}`, within(-Infinity, middle)],
      [`/${iso(middle)}`, within(-Infinity, middle)],
      [`${iso(older).slice(0, 10)}/${iso(middle)}`, within(Date.parse(iso(older).slice(0, 10)), middle)],
      ['1990-01-01/1990-12-31', []],
      // Digits below the millisecond: places' dates are whole milliseconds, none is within the instant 0.5 ms past one.
      [iso(shared).replace('Z', '5Z'), []],
      [`${iso(shared - 1).replace('Z', '0001Z')}/${iso(shared).replace('Z', '999z')}`, within(shared, shared)],
      [`${iso(shared).replace('Z', '5Z')}/${iso(shared).replace('Z', '9Z')}`, []],
    ]
    for (const [datetime, expected] of cases) {
      const all = (await (await request.get(`/ogc/collections/post/items?limit=1000&datetime=${encodeURIComponent(datetime)}`)).json()) as Items
      expect(all.numberMatched, datetime).toBe(expected.length)
      expect(
        all.features.map((f) => f.id),
        datetime,
      ).toEqual(expected.map((p) => p.id))
      for (const f of all.features) expect(f.properties.date).toBe(iso(expected.find((p) => p.id === f.id)!.date))
    }
    expect(within(shared, shared).length).toBeGreaterThan(1)
    // With a box and pages: the next links carry the interval, and the pages make up the whole.
    const box = [-10, 35, 30, 60]
    const expected = within(-Infinity, middle).filter(({ coordinates }) => {
      const [x, y] = coordinates!
      return x >= box[0]! && x <= box[2]! && y >= box[1]! && y <= box[3]!
    })
    expect(expected.length).toBeGreaterThan(2)
    let url: string | undefined = `/ogc/collections/post/items?limit=2&bbox=${box.join(',')}&datetime=../${iso(middle)}`
    const seen: number[] = []
    while (url) {
      const page = (await (await request.get(url)).json()) as Items
      expect(page.numberMatched).toBe(expected.length)
      seen.push(...page.features.map((f) => f.id))
      url = page.links.find((l) => l.rel === 'next')?.href
      if (url) expect(new URL(url).searchParams.get('datetime')).toBe(`../${iso(middle)}`)
    }
    expect(seen).toEqual(expected.map((p) => p.id))
    for (const datetime of [
      'yesterday',
      '2024-13-01',
      '2024-05-01T10:00:00',
      '2024-05-01/2023-01-01',
      '2024-05-01T00:00:00.0009Z/2024-05-01T00:00:00.0001Z',
      '2024/2025/2026',
      '..',
      '',
    ]) {
      const response = await request.get(`/ogc/collections/post/items?datetime=${encodeURIComponent(datetime)}`)
      expect(response.status(), datetime).toBe(400)
      await expectWordPressError(response, 400, 'rest_invalid_param')
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

  test('every resource is JSON for GIS clients and HTML for a browser: f=json|geojson|html, else the Accept header', async ({ request, baseURL }) => {
    const place = fixturePosts('landmark')[0]!
    const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'
    for (const resource of [
      '/ogc',
      '/ogc/conformance',
      '/ogc/collections',
      '/ogc/collections/landmark',
      '/ogc/collections/landmark/items',
      `/ogc/collections/landmark/items/${place.id}`,
    ]) {
      const json = resource.includes('/items') ? /^application\/geo\+json/ : /^application\/json/
      const answers = {
        'no Accept': await request.get(resource, { headers: { Accept: '' } }),
        '*/*': await request.get(resource, { headers: { Accept: '*/*' } }),
        'GDAL-like': await request.get(resource, { headers: { Accept: 'application/geo+json, application/json' } }),
        'browser, f=json': await request.get(`${resource}?f=json`, { headers: { Accept: BROWSER } }),
        'browser, f=geojson': await request.get(`${resource}?f=geojson`, { headers: { Accept: BROWSER } }),
      }
      for (const [what, response] of Object.entries(answers)) {
        expect(response.status(), `${resource}, ${what}`).toBe(200)
        expect(response.headers()['content-type'], `${resource}, ${what}`).toMatch(json)
        expect(response.headers().vary, `${resource}, ${what}`).toContain('Accept')
        const links = ((await response.json()) as { links?: { rel: string; type?: string; href: string }[] }).links
        if (links) expect(links.find((l) => l.rel === 'alternate')).toMatchObject({ type: 'text/html', href: expect.stringContaining('f=html') })
      }
      for (const [what, response] of Object.entries({
        'f=html': await request.get(`${resource}?f=html`, { headers: { Accept: 'application/json' } }),
        browser: await request.get(resource, { headers: { Accept: BROWSER } }),
      })) {
        expect(response.status(), `${resource}, ${what}`).toBe(200)
        expect(response.headers()['content-type'], `${resource}, ${what}`).toBe('text/html; charset=utf-8')
        expect(response.headers()['content-security-policy'], `${resource}, ${what}`).toMatch(/default-src 'none'/)
        expect(response.headers().vary).toContain('Accept')
        const html = await response.text()
        expect(html).toMatch(/^<!doctype html><html lang="en">/)
        expect(html).not.toContain('<script')
        // The page links to the document it shows, in its own format.
        expect(html).toMatch(/<link rel="alternate" type="application\/(geo\+)?json" href="http/)
      }
      // An f that is none of these: a 400 in the format the client takes.
      const bad = await request.get(`${resource}?f=xml`)
      await expectWordPressError(bad, 400, 'rest_invalid_param')
      const badPage = await request.get(`${resource}?f=xml`, { headers: { Accept: BROWSER } })
      expect(badPage.status()).toBe(400)
      expect(await badPage.text()).toContain('f must be json, geojson or html.')
      // A parameter the resource does not define: a 400 too, as OGC API – Common requires.
      await expectWordPressError(await request.get(`${resource}?foo=1`), 400, 'rest_invalid_param')
    }
    // A missing collection or feature is a 404 page for a person, the JSON error for a program.
    for (const missing of ['/ogc/collections/nothing-here', '/ogc/collections/nothing-here/items', '/ogc/collections/landmark/items/999999']) {
      const page = await request.get(`${missing}?f=html`)
      expect(page.status()).toBe(404)
      expect(page.headers()['content-type']).toBe('text/html; charset=utf-8')
      expect(await page.text()).toContain('<h1>Not found</h1>')
      expect((await request.get(missing)).headers()['content-type']).toMatch(/^application\/json/)
    }
    // The JSON link of a page keeps f, so that a browser following it gets the document.
    const landing = await (await request.get('/ogc?f=html')).text()
    expect(landing).toContain(`href="${baseURL}/ogc?f=json" type="application/json">JSON</a>`)
  })

  test('the HTML pages escape every title and address: text, never markup', async ({ request }) => {
    const hostile = publicPlaces.find((p) => p.title.includes('<script>'))!
    for (const url of [`/ogc/collections/${hostile.type}/items/${hostile.id}?f=html`, `/ogc/collections/${hostile.type}/items?f=html&limit=1000`]) {
      const html = await (await request.get(url)).text()
      expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;')
      expect(html).toContain('Av. 9 de Julio &#60;b&#62;&#38;amp;&#60;/b&#62; &#34;Obelisco&#34; &#39;n°5&#39;')
      expect(html).not.toContain('<script>')
      expect(html).not.toContain('<b>')
    }
  })

  test('items send their paging links as a Link header too, in the format of the answer', async ({ request }) => {
    const total = fixturePosts('post').length
    const first = await request.get('/ogc/collections/post/items?limit=3')
    const body = (await first.json()) as Items
    const next = body.links.find((l) => l.rel === 'next')!.href
    expect(first.headers().link).toBe(`<${next}>; rel="next"; type="application/geo+json"`)
    const middle = await request.get(next)
    const links = ((await middle.json()) as Items).links
    const href = (rel: string) => links.find((l) => l.rel === rel)!.href
    expect(middle.headers().link).toBe(`<${href('next')}>; rel="next"; type="application/geo+json", <${href('prev')}>; rel="prev"; type="application/geo+json"`)
    const last = await request.get(`/ogc/collections/post/items?limit=3&offset=${total - 1}`)
    expect(last.headers().link).toMatch(/^<[^>]+offset=\d+[^>]*>; rel="prev"; type="application\/geo\+json"$/)
    const page = await request.get('/ogc/collections/post/items?limit=3&offset=3&f=html')
    expect(page.headers().link).toMatch(
      /^<[^>]+offset=6[^>]*f=html>; rel="next"; type="text\/html", <[^>]+offset=0[^>]*f=html>; rel="prev"; type="text\/html"$/,
    )
    const html = await page.text()
    expect(html).toContain(`Places 4–6 of ${total}, newest first.`)
    expect(html).toMatch(/<a href="[^"]+offset=6[^"]*f=html" rel="next">Next →<\/a>/)
    // One place alone has no pages.
    expect((await request.get(`/ogc/collections/post/items/${fixturePosts('post')[0]!.id}`)).headers().link).toBeUndefined()
  })

  test('answers are kept per data version as the REST ones: an ETag per format, 304 for a current copy', async ({ request }) => {
    const place = fixturePosts('landmark')[0]!
    for (const resource of [
      '/ogc',
      '/ogc/collections',
      '/ogc/collections/landmark',
      '/ogc/collections/landmark/items?limit=2',
      `/ogc/collections/landmark/items/${place.id}`,
    ]) {
      // Retried until no other spec's write fell between the two requests.
      for (let attempt = 0; ; attempt++) {
        const json = await request.get(resource)
        const html = await request.get(resource, { headers: { Accept: 'text/html' } })
        const etag = json.headers().etag!
        // Weak: the items' timeStamp may differ between two builds of the same version.
        expect(etag, resource).toMatch(/^W\/"[^"]+"$/)
        expect(json.headers()['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+$/)
        expect(html.headers().etag, `${resource}: the page is another representation`).not.toBe(etag)
        const again = await request.get(resource, { headers: { 'If-None-Match': etag } })
        const page = await request.get(resource, { headers: { 'If-None-Match': html.headers().etag!, Accept: 'text/html' } })
        if ((again.status() === 304 && page.status() === 304) || attempt === 20) {
          expect(again.status(), resource).toBe(304)
          expect(await again.body()).toHaveLength(0)
          expect(again.headers().vary).toContain('Accept')
          expect(page.status(), resource).toBe(304)
          // The JSON's ETag does not match the page: a browser holding JSON gets the page.
          expect((await request.get(resource, { headers: { 'If-None-Match': etag, Accept: 'text/html' } })).status()).not.toBe(304)
          break
        }
      }
    }
    // What is not there is a 404 and what is wrong a 400, whatever ETag the client holds.
    const etag = (await request.get('/ogc')).headers().etag!
    for (const tag of ['*', etag]) {
      expect((await request.get('/ogc/collections/nothing-here', { headers: { 'If-None-Match': tag } })).status()).toBe(404)
      expect((await request.get('/ogc/collections/landmark/items/999999', { headers: { 'If-None-Match': tag } })).status()).toBe(404)
      expect((await request.get('/ogc/collections/landmark/items?limit=abc', { headers: { 'If-None-Match': tag } })).status()).toBe(400)
    }
    // A script of another site may send If-None-Match: the preflight allows it, as for the REST routes.
    const preflight = await request.fetch('/ogc/collections/landmark/items', {
      method: 'OPTIONS',
      headers: { Origin: 'https://gis.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' },
    })
    expect(preflight.status()).toBe(204)
    expect(preflight.headers()['access-control-allow-origin']).toBe('*')
    expect(preflight.headers()['access-control-allow-headers']).toContain('If-None-Match')
  })

  test('every answer matches the OGC API’s own OpenAPI 3.0 document, as a client generated from it expects', async ({ request }) => {
    type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> }
    const definition = (await (await request.get('/ogc/api')).json()) as {
      paths: Record<string, { get: Operation }>
      components: { schemas: Record<string, object> }
    }
    // OpenAPI 3.0's schema objects are JSON Schema draft 4–7 with `nullable`, which Ajv reads.
    const ajv = new Ajv({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'ogc.json', components: definition.components })
    const items = (await (await request.get('/ogc/collections/post/items?limit=3')).json()) as Items
    const answers: [string, string, number][] = [
      ['/', '/ogc', 200],
      ['/conformance', '/ogc/conformance', 200],
      ['/collections', '/ogc/collections', 200],
      ['/collections/{collectionId}', '/ogc/collections/landmark', 200],
      ['/collections/{collectionId}', '/ogc/collections/nothing-here', 404],
      ['/collections/{collectionId}/items', '/ogc/collections/post/items?limit=3&bbox=-180,-90,180,90', 200],
      ['/collections/{collectionId}/items', '/ogc/collections/post/items?limit=x', 400],
      ['/collections/{collectionId}/items/{featureId}', `/ogc/collections/post/items/${items.features[0]!.id}`, 200],
      ['/collections/{collectionId}/items/{featureId}', '/ogc/collections/post/items/999999', 404],
      ['/collections/{collectionId}', '/ogc/collections/trips', 200],
      ['/collections/{collectionId}/items', '/ogc/collections/trips/items?bbox=12,41,13,42', 200],
      ['/collections/{collectionId}/items/{featureId}', `/ogc/collections/trips/items/${trip.id}`, 200],
    ]
    for (const [pathKey, url, status] of answers) {
      const response = await request.get(url)
      expect(response.status(), url).toBe(status)
      const [type, { schema }] = Object.entries(definition.paths[pathKey]!.get.responses[String(status)]!.content!)[0]!
      expect(response.headers()['content-type'], url).toContain(type)
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"ogc.json#/components')))
      expect(validate(await response.json()), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true)
    }
  })

  test('OWSLib, a second real client, reads every collection and feature as the routes serve them', ({ baseURL }) => {
    test.skip(!hasOwslib() && !process.env.CI, 'OWSLib (Debian python3-owslib) is not installed; .ci/run installs it, and in CI this test runs')
    const read = JSON.parse(
      execFileSync(PYTHON, [path.join(__dirname, '..', 'support', 'owslib-read.py'), `${baseURL}/ogc`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
    ) as { api: { openapi: string; paths: Record<string, unknown> }; conformsTo: string[]; collections: Record<string, OgcFeature[]> }
    // OWSLib finds the API definition by the landing page's service-desc of OpenAPI 3.0's type.
    expect(read.api.openapi).toBe('3.0.3')
    expect(Object.keys(read.api.paths)).toContain('/collections/{collectionId}/items')
    expect(read.conformsTo).toContain('http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson')
    for (const type of ['post', 'landmark']) expect(Object.keys(read.collections)).toContain(type)
    expect(Object.keys(read.collections)).not.toContain('draftonly')
    // The trips, as lines.
    const walk = read.collections.trips!.find((f) => f.id === trip.id) as unknown as { geometry: { type: string; coordinates: number[][][] } }
    expect(walk.geometry).toEqual({
      type: 'MultiLineString',
      coordinates: [
        [
          [12.48, 41.89],
          [12.49, 41.9],
          [12.5, 41.9],
        ],
      ],
    })
    // The fixture's types; other specs publish places of types of their own meanwhile, each a collection too.
    for (const type of ['post', 'landmark']) {
      const features = read.collections[type]!
      const expected = fixturePosts(type).map((p) => ({
        id: p.id,
        title: p.title,
        url: expectedUrl(baseURL!, p),
        address: p.address,
        coordinates: p.coordinates!,
      }))
      // Every feature once, newest first, as paged by limit and offset.
      expect(
        features.map((f) => ({
          id: f.id,
          title: f.properties.title,
          url: f.properties.url,
          address: f.properties.address,
          coordinates: f.geometry.coordinates,
        })),
        type,
      ).toEqual(expected)
    }
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
    // The trips, as lines GDAL reads as such.
    const trips = JSON.parse(
      execFileSync('ogr2ogr', ['-preserve_fid', '-f', 'GeoJSON', '/vsistdout/', `OAPIF:${baseURL}/ogc`, 'trips'], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as { features: { id?: number; properties: { title: string }; geometry: { type: string } }[] }
    const walk = trips.features.find((f) => Number(f.id) === trip.id)
    expect([walk?.properties.title, walk?.geometry.type]).toEqual([trip.title, 'MultiLineString'])
  })
})

// Debian's Python, which python3-owslib is installed for (a python3 of pyenv or a venv may come first in PATH).
const PYTHON = '/usr/bin/python3'

function hasOwslib(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import owslib.ogcapi.features'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

function hasOgrinfo(): boolean {
  try {
    execFileSync('ogrinfo', ['--version'])
    return true
  } catch {
    return false
  }
}
