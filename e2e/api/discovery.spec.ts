import { createRequire } from 'node:module'
import type { APIRequestContext, APIResponse } from '@playwright/test'
import { basic } from '../support/auth'
import { expectWordPressError } from '../support/http'
import { CORPUS_DIR, PHOTOS } from '../support/media'
import { createAppPassword, createUser, importMedia, importPosts, runId } from '../support/places-cli'
import { fixturePost, publicPlaces } from '../support/places'
import { expect, test } from '../support/test'

// Found as WordPress clients find it (docs/api.md, Discovery): pages name the REST index in a `Link` header, GET
// /wp-json/ is WordPress's index of exactly the routes this site serves, and `/?rest_route=/…` answers as the route
// itself. A real WordPress client library (node-wpapi) discovers the API and reads a route through it.

type Arg = { type: string; required: boolean; description: string; default?: unknown }
type IndexRoute = {
  namespace: string
  methods: string[]
  endpoints: { methods: string[]; args: Record<string, Arg> }[]
  _links?: Record<string, { href: string }[]>
}
type RestIndex = {
  name: string
  description: string
  url: string
  home: string
  namespaces: string[]
  authentication: object
  routes: Record<string, IndexRoute>
}
type OpenApi = { servers: { url: string }[]; paths: Record<string, { servers?: { url: string }[] } & Record<string, unknown>> }

// node-wpapi is CommonJS without types of its own: the few members used here.
type WpRequest = { id: (id: number) => WpRequest; param: (name: string, value: string) => WpRequest; get: () => Promise<unknown> }
type WpSite = { namespace: (name: string) => Record<string, () => WpRequest> }
const WPAPI = createRequire(__filename)('wpapi') as { discover: (url: string) => Promise<WpSite> }

/** The URL of a route of the index (a key such as `/places/v1/geojson/(?P<id>[\d]+)`) with this id for its parameter. */
const concrete = (route: string, id: number) => route.replace(/\(\?P<\w+>[^)]*\)/g, String(id))

/** The `<…>` of the Link header's rel="https://api.w.org/" link, or undefined. */
function apiLink(response: APIResponse): string | undefined {
  const link = response.headers().link ?? ''
  return /<([^>]+)>;\s*rel="https:\/\/api\.w\.org\/"/.exec(link)?.[1]
}

/**
 * The same request at the pretty path and as `/?rest_route=`, with the same data version on both: retried until no
 * other spec's write fell between them (the first and a third request at the pretty path carry the same ETag).
 */
async function both(request: APIRequestContext, route: string, query: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  const pretty = `/wp-json${route}${query ? `?${query}` : ''}`
  const plain = `/?${new URLSearchParams({ rest_route: route }).toString()}${query ? `&${query}` : ''}`
  for (let attempt = 0; ; attempt++) {
    const before = await request.fetch(pretty, options)
    const viaRestRoute = await request.fetch(plain, options)
    const after = await request.fetch(pretty, options)
    if (before.headers().etag === after.headers().etag || attempt === 20) return { pretty: after, plain: viaRestRoute, url: plain }
  }
}

/** Status, body and the headers a client acts on are the same. */
async function expectSameAnswer({ pretty, plain, url }: { pretty: APIResponse; plain: APIResponse; url: string }) {
  expect(plain.status(), url).toBe(pretty.status())
  for (const name of ['content-type', 'etag', 'cache-control', 'access-control-allow-origin']) {
    expect(plain.headers()[name], `${url}: ${name}`).toBe(pretty.headers()[name])
  }
  expect((await plain.body()).toString(), url).toBe((await pretty.body()).toString())
}

test.describe('discovery', () => {
  let index: RestIndex
  let document: OpenApi
  const publicId = fixturePost('Eiffel Tower').id

  test.beforeAll(async ({ request }) => {
    index = (await (await request.get('/wp-json/')).json()) as RestIndex
    document = (await (await request.get('/places/v1/openapi.json')).json()) as OpenApi
  })

  test('GET /wp-json/ is WordPress’s index: the site, its namespaces, every route under /wp-json with its arguments', async ({ request, baseURL }) => {
    const response = await request.get('/wp-json/')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toMatch(/^application\/json/)
    expect(response.headers()['access-control-allow-origin']).toBe('*')
    expect(index).toMatchObject({ name: 'Places', description: 'Geotagged posts on a map', url: baseURL, home: baseURL, authentication: {} })
    expect(index.namespaces).toEqual(['oembed/1.0', 'places/v1'])

    // Exactly the routes of the OpenAPI document that answer under /wp-json: places/v1 (its second server), the index
    // and oEmbed; /ogc is not WordPress's and is not listed.
    const expected = Object.entries(document.paths).flatMap(([path, item]) => {
      const servers = (item.servers ?? document.servers).map((server) => server.url)
      if (servers.includes(`${baseURL}/wp-json`)) return [path.replace(/\{(\w+)\}/g, '(?P<$1>[\\d]+)')]
      return path.startsWith('/wp-json/') ? [path.slice('/wp-json'.length)] : []
    })
    expect(Object.keys(index.routes).sort()).toEqual(expected.sort())
    expect(expected).toEqual(expect.arrayContaining(['/', '/oembed/1.0/embed', '/places/v1', '/places/v1/geojson', '/places/v1/geojson/(?P<id>[\\d]+)']))
    expect(Object.keys(index.routes).some((route) => route.startsWith('/ogc'))).toBe(false)

    expect(index.routes['/']).toMatchObject({ namespace: '', methods: ['GET'], _links: { self: [{ href: `${baseURL}/wp-json/` }] } })
    expect(index.routes['/places/v1/media']).toMatchObject({ namespace: 'places/v1', methods: ['POST'] })
    const collectionArgs = index.routes['/places/v1/geojson']!.endpoints[0]!.args
    expect(collectionArgs.posts_per_page).toMatchObject({ type: 'string', required: false, default: '50' })
    expect(index.routes['/places/v1/geojson/(?P<id>[\\d]+)']!.endpoints[0]!.args.id).toMatchObject({ required: true })
    const oembed = index.routes['/oembed/1.0/embed']!
    expect(oembed).toMatchObject({ namespace: 'oembed/1.0', methods: ['GET'] })
    expect(oembed.endpoints[0]!.args.url).toMatchObject({ type: 'string', required: true })
    expect(oembed.endpoints[0]!.args.format).toMatchObject({ required: false, default: 'json' })
    expect(Object.keys(oembed.endpoints[0]!.args).sort()).toEqual(['format', 'maxheight', 'maxwidth', 'url'])
  })

  test('every route the index lists answers under /wp-json with its methods; an unlisted one is rest_no_route', async ({ request, baseURL }) => {
    for (const [route, { methods }] of Object.entries(index.routes)) {
      for (const method of methods) {
        const url = `/wp-json${route === '/' ? '/' : concrete(route, publicId)}${route === '/oembed/1.0/embed' ? `?url=${encodeURIComponent(`${baseURL}/`)}` : ''}`
        // Without credentials or a body: the protected route and the upload refuse, but they exist.
        const response = await request.fetch(url, { method })
        const text = await response.text()
        // A route's own 404 (no trip of that id) is an answer; rest_no_route would say there is no such route.
        if (response.status() === 404) expect(JSON.parse(text).code, `${method} ${url}: ${text.slice(0, 200)}`).not.toBe('rest_no_route')
        expect(response.status(), `${method} ${url}`).toBeLessThan(500)
      }
    }
    await expectWordPressError(await request.get('/wp-json/nothing/v1/here'), 404, 'rest_no_route', { cors: false })
    await expectWordPressError(await request.get('/wp-json/ogc'), 404, 'rest_no_route', { cors: false })
  })

  test('the index is cached as the GeoJSON answers: an ETag, 304 for If-None-Match, shared caches may keep it', async ({ request }) => {
    const response = await request.get('/wp-json/')
    const etag = response.headers().etag
    expect(etag).toMatch(/^"[^"]+"$/)
    expect(response.headers()['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+$/)
    const again = await request.get('/wp-json/', { headers: { 'If-None-Match': etag! } })
    expect(again.status()).toBe(304)
    expect(await again.body()).toHaveLength(0)
    expect(again.headers().etag).toBe(etag)
    // Without the trailing slash, and as HEAD, the same.
    expect((await request.get('/wp-json')).headers().etag).toBe(etag)
    const head = await request.head('/wp-json/')
    expect(head.status()).toBe(200)
    expect(head.headers().etag).toBe(etag)
  })

  test('pages name the index in a Link header, HEAD / included; the API answers do not', async ({ request, baseURL }) => {
    const post = fixturePost('Eiffel Tower')
    for (const [method, path] of [
      ['GET', '/'],
      ['HEAD', '/'],
      ['GET', '/?post_type=post&zoom=3'],
      ['GET', `/${post.type}/${encodeURIComponent(post.slug)}`],
      ['HEAD', `/${post.type}/${encodeURIComponent(post.slug)}`],
      ['GET', '/signin'],
      ['GET', '/no-such-page-here'],
    ] as const) {
      const response = await request.fetch(path, { method, maxRedirects: 0 })
      expect(response.status(), `${method} ${path}`).toBeLessThan(500)
      if (method === 'GET') expect(response.headers()['content-type'], `${method} ${path}`).toMatch(/^text\/html/)
      expect(apiLink(response), `${method} ${path}: Link ${response.headers().link}`).toBe(`${baseURL}/wp-json/`)
    }
    for (const path of ['/places/v1/geojson?posts_per_page=1', '/wp-json', '/wp-json/', '/?rest_route=/']) {
      const response = await request.get(path)
      expect(apiLink(response), path).toBeUndefined()
      // The index is an API answer, not a page: no page's Content-Security-Policy either.
      expect(response.headers()['content-security-policy'], path).toBeUndefined()
    }
  })

  test('node-wpapi discovers the API from the site’s URL and reads places/v1 through it', async ({ request, baseURL }) => {
    const site = await WPAPI.discover(`${baseURL}/`)
    // discover() falls back to WordPress's default routes when discovery fails: then places/v1 is unknown to it.
    const places = site.namespace('places/v1')
    const feature = await places.geojson!().id(publicId).get()
    expect(feature).toEqual(await (await request.get(`/places/v1/geojson/${publicId}`)).json())
    const collection = (await places.geojson!().param('posts_per_page', '2').get()) as { type: string; features: { properties: { id: number } }[] }
    expect(collection.type).toBe('FeatureCollection')
    expect(collection.features).toHaveLength(2)
    expect(publicPlaces.map((p) => p.id)).toEqual(expect.arrayContaining(collection.features.map((f) => f.properties.id)))
  })
})

test.describe('/?rest_route=', () => {
  let postId: number
  let authorization: string

  test.beforeAll(async ({ databaseUrl, uploadsDir, baseURL }) => {
    // Four runs of the command line, each a Node.js start: on a loaded machine, more than a test's 30 s.
    test.setTimeout(180_000)
    const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
    const email = `rest-route-${runId()}@e2e.test`
    await createUser(server, email, 'rest-route-password', 'editor')
    authorization = basic(email, await createAppPassword(server, email, 'rest_route'))
    const [id] = await importPosts(
      server,
      [{ type: 'Feature', geometry: null, properties: { title: 'rest_route photo', type: 'restroutetest', status: 'draft' } }],
      email,
    )
    postId = id!
    await importMedia(server, postId, [`${CORPUS_DIR}/${PHOTOS.nikon}`])
  })

  test('every public route answers as at its pretty path: status, body, ETag, CORS, with the rest of the query', async ({ request, baseURL }) => {
    const feature = fixturePost('Eiffel Tower').id
    const cases: [string, string][] = [
      ['/', ''],
      ['/places/v1', ''],
      ['/places/v1/openapi.json', ''],
      ['/places/v1/geojson', ''],
      ['/places/v1/geojson', 'posts_per_page=3&_embed=1'],
      ['/places/v1/geojson', 'bbox=-20,30,40,60&cluster=true&zoom=3'],
      ['/places/v1/geojson', 'posts_per_page=abc'],
      [`/places/v1/geojson/${feature}`, ''],
      [`/places/v1/geojson/${feature}`, '_embed=1'],
      ['/places/v1/geojson/999999', ''],
      ['/oembed/1.0/embed', `url=${encodeURIComponent(`${baseURL}/`)}`],
      ['/oembed/1.0/embed', `url=${encodeURIComponent(`${baseURL}/`)}&format=xml`],
      ['/oembed/1.0/embed', ''],
    ]
    for (const [route, query] of cases) await expectSameAnswer(await both(request, route, query))
    // HEAD: the same status and headers, no body.
    for (const [route, query] of cases.slice(0, 5)) {
      const answers = await both(request, route, query, { method: 'HEAD' })
      await expectSameAnswer(answers)
      expect(answers.plain.status()).toBe(200)
    }
  })

  test('If-None-Match, a trailing slash, an empty route and a repeated rest_route as WordPress', async ({ request }) => {
    const fresh = await request.get('/?rest_route=/places/v1/geojson&posts_per_page=1')
    expect(fresh.status()).toBe(200)
    expect(fresh.headers()['content-type']).toMatch(/^application\/geo\+json/)
    for (let attempt = 0; ; attempt++) {
      const etag = (await request.get('/?rest_route=/places/v1/geojson&posts_per_page=1')).headers().etag!
      const notModified = await request.get('/?rest_route=/places/v1/geojson&posts_per_page=1', { headers: { 'If-None-Match': etag } })
      if (notModified.status() === 304 || attempt === 20) {
        expect(notModified.status()).toBe(304)
        break
      }
    }
    await expectSameAnswer(await both(request, '/places/v1/geojson/', 'posts_per_page=2'))
    const index = await (await request.get('/wp-json/')).text()
    expect(await (await request.get('/?rest_route=')).text()).toBe(index)
    expect(await (await request.get('/?rest_route=/')).text()).toBe(index)
    expect(await (await request.get('/?rest_route=/nothing&rest_route=/')).text()).toBe(index)
  })

  test('what is not a route is rest_no_route, never a page', async ({ request }) => {
    for (const route of [
      '/places/v1/nothing',
      '/places/v1/geojson/abc',
      '/places/v2/geojson',
      '/wp/v2/posts',
      '/oembed/1.0/nothing',
      '/places/v1/../../signin',
      '/places/v1/./geojson',
      'places/v1/geojson',
      '/places//v1/geojson',
      '/ogc',
      '/uploads/x.jpg',
    ]) {
      const response = await request.get(`/?${new URLSearchParams({ rest_route: route }).toString()}`)
      const body = await response.text()
      expect(response.status(), `${route}: ${body.slice(0, 200)}`).toBe(404)
      expect(JSON.parse(body), route).toMatchObject({ code: 'rest_no_route', data: { status: 404 } })
    }
  })

  test('the protected route: the same credentials, the same refusals, never cached', async ({ request }) => {
    const route = `/places/v1/attachment-exif-gps/${postId}`
    const anonymous = await both(request, route, '')
    await expectSameAnswer(anonymous)
    await expectWordPressError(anonymous.plain, 401, 'rest_forbidden', { cors: false })
    const wrong = await both(request, route, '', { headers: { Authorization: basic('nobody@e2e.test', 'wrong') } })
    await expectSameAnswer(wrong)
    expect(wrong.plain.status()).toBe(401)
    const allowed = await both(request, route, '', { headers: { Authorization: authorization } })
    await expectSameAnswer(allowed)
    expect(allowed.plain.status()).toBe(200)
    expect(allowed.plain.headers()['cache-control']).toBe('private, no-store')
    const gps = (await allowed.plain.json()) as { latitude: unknown; longitude: unknown }
    expect(typeof gps.latitude).toBe('number')
    expect(typeof gps.longitude).toBe('number')
    await expectSameAnswer(await both(request, '/places/v1/attachment-exif-gps/2147483646', '', { headers: { Authorization: authorization } }))
  })

  test('an upload through rest_route is the media route’s', async ({ request }) => {
    const refused = await request.post('/?rest_route=/places/v1/media&post=abc', {
      data: Buffer.from('x'),
      headers: { Authorization: authorization, 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment; filename="x.jpg"' },
    })
    await expectWordPressError(refused, 400, 'rest_invalid_param', { cors: false })
  })

  test('/ without rest_route is still the map', async ({ request }) => {
    for (const path of ['/', '/?rest_routes=/places/v1', '/?zoom=3']) {
      const response = await request.get(path)
      expect(response.status(), path).toBe(200)
      expect(response.headers()['content-type'], path).toMatch(/^text\/html/)
    }
  })
})
