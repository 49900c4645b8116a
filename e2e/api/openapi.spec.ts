import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import type { APIResponse } from '@playwright/test'
import { holdUpload } from '../support/media'
import { expect, test } from '../support/test'

// The OpenAPI document (/places/v1/openapi.json) validates as OpenAPI 3.1; every route's real answers — each status it
// documents but 413 (a body past the upload limit) — match the schema and headers it gives for them; every route
// answers at each server the document names for it, and only there; the document has every route the app serves.
// GET /places/v1 is WordPress's namespace index.

type Response = { headers?: Record<string, { schema: object }>; content?: Record<string, { schema: object }> }
type Operation = { parameters?: { name: string }[]; responses: Record<string, Response> }
type Server = { url: string }
type PathItem = Record<string, Operation> & { servers?: Server[] }
type Document = { servers: Server[]; paths: Record<string, PathItem>; components: { schemas: Record<string, object> } }

const operationsOf = ({ servers: _, ...item }: PathItem) => Object.entries<Operation>(item)

const ROOT = path.resolve(__dirname, '..', '..')
const EMAIL = 'openapi-editor@e2e.test'

test.describe('OpenAPI', () => {
  let document: Document
  let ajv: Ajv2020
  let basic: string
  let postId: number

  test.beforeAll(async ({ request, databaseUrl, uploadsDir, baseURL }) => {
    const places = (...args: string[]) => {
      const run = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'places.mjs'), ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: databaseUrl, UPLOADS_DIR: uploadsDir, SITE_URL: baseURL },
      })
      if (run.status !== 0) throw new Error(`places ${args.join(' ')}: ${run.stderr}`)
      return run.stdout.trim()
    }
    places('user', 'create', '--email', EMAIL, '--password', 'openapi-password', '--role', 'editor')
    basic = `Basic ${Buffer.from(`${EMAIL}:${places('app-password', 'create', '--user', EMAIL).split('\n').at(-1)}`).toString('base64')}`
    const file = path.join(uploadsDir, '..', `openapi-${path.basename(uploadsDir)}.geojson`)
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: null, properties: { title: 'OpenAPI photos', type: 'openapitest', status: 'draft' } }],
      }),
    )
    postId = Number(places('import', file, '--author', EMAIL))
    places('media', 'import', '--post', String(postId), path.join(ROOT, 'test', 'fixtures', 'exif', 'exr_noexif.jpg'))
    // A trip of one line and no posts: the trips' routes have something to answer with, and no other spec's map changes.
    const kml = path.join(uploadsDir, '..', `openapi-${path.basename(uploadsDir)}.kml`)
    writeFileSync(
      kml,
      '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>OpenAPI walk</name><LineString><coordinates>2.35,48.85 2.36,48.86 2.37,48.86</coordinates></LineString></Placemark></kml>',
    )
    places('import', kml)

    document = (await (await request.get('/places/v1/openapi.json')).json()) as Document
    ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema({ $id: 'places.json', components: document.components })
  })

  test('the document is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(document)
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([])
    expect(result.valid).toBe(true)
  })

  /** The answer's status is documented for the operation, and its body matches the documented schema. */
  async function expectDocumented(pathKey: string, method: string, response: APIResponse): Promise<void> {
    const operation = document.paths[pathKey]?.[method]
    expect(operation, `${method} ${pathKey} is documented`).toBeTruthy()
    const status = String(response.status())
    const documented = operation!.responses[status]
    expect(documented, `${method.toUpperCase()} ${pathKey} documents status ${status}`).toBeTruthy()
    for (const [name, header] of Object.entries(documented!.headers ?? {})) {
      const validateHeader = ajv.compile(header.schema)
      const value = response.headers()[name.toLowerCase()]
      expect(validateHeader(value), `${method.toUpperCase()} ${pathKey} ${status} header ${name}: ${value} (${ajv.errorsText(validateHeader.errors)})`).toBe(
        true,
      )
    }
    const [mediaType, content] = Object.entries(documented!.content ?? {})[0] ?? []
    if (!content) return expect(await response.body()).toHaveLength(0)
    expect(response.headers()['content-type']).toContain(mediaType!.replace('/*', ''))
    const schema = JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components', '"places.json#/components'))
    const validate = ajv.compile(schema)
    const body = await response.json()
    expect(validate(body), `${method.toUpperCase()} ${pathKey} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true)
  }

  test('every documented route is checked here against its real answers', async ({ request, baseURL, uploadsDir }) => {
    const checked = new Set<string>()
    const check = async (pathKey: string, method: string, response: APIResponse) => {
      await expectDocumented(pathKey, method, response)
      checked.add(`${method} ${pathKey} ${response.status()}`)
    }
    await check('/places/v1', 'get', await request.get('/places/v1'))
    await check('/places/v1/openapi.json', 'get', await request.get('/places/v1/openapi.json'))

    const collection = await request.get('/places/v1/geojson?posts_per_page=5')
    await check('/places/v1/geojson', 'get', collection)
    // A 304, retried until no other spec's write fell between the two requests.
    const notModified = async (url: string) => {
      for (let attempt = 0; ; attempt++) {
        const etag = (await request.get(url)).headers().etag!
        const response = await request.get(url, { headers: { 'If-None-Match': etag } })
        if (response.status() === 304 || attempt === 20) return response
      }
    }
    await check('/places/v1/geojson', 'get', await notModified('/places/v1/geojson'))
    await check('/places/v1/geojson', 'get', await request.get('/places/v1/geojson?posts_per_page=0'))
    await check('/places/v1/geojson', 'get', await request.get('/places/v1/geojson?bbox=-20,30,40,60&posts_per_page=5'))
    await check('/places/v1/geojson', 'get', await request.get('/places/v1/geojson?bbox=-20,30,40,60&cluster=true&zoom=3'))

    await check('/places/v1/export', 'get', await request.get('/places/v1/export?bbox=-20,30,40,60'))
    await check('/places/v1/export', 'get', await request.get('/places/v1/export?format=shp'))

    await check('/places/v1/timeline', 'get', await request.get('/places/v1/timeline?bbox=-20,30,40,60'))
    await check('/places/v1/timeline', 'get', await notModified('/places/v1/timeline'))
    await check('/places/v1/timeline', 'get', await request.get('/places/v1/timeline?unit=week'))

    const id = ((await collection.json()) as { features: { properties: { id: number } }[] }).features[0]!.properties.id
    const feature = await request.get(`/places/v1/geojson/${id}`)
    await check('/places/v1/geojson/{id}', 'get', feature)
    await check('/places/v1/geojson/{id}', 'get', await notModified(`/places/v1/geojson/${id}`))
    await check('/places/v1/geojson/{id}', 'get', await request.get('/places/v1/geojson/999999'))

    const trips = await request.get('/places/v1/trips')
    await check('/places/v1/trips', 'get', trips)
    await check('/places/v1/trips', 'get', await notModified('/places/v1/trips'))
    const tripId = ((await trips.json()) as { features: { properties: { id: number } }[] }).features[0]!.properties.id
    await check('/places/v1/trips/{id}', 'get', await request.get(`/places/v1/trips/${tripId}`))
    await check('/places/v1/trips/{id}', 'get', await notModified(`/places/v1/trips/${tripId}`))
    await check('/places/v1/trips/{id}', 'get', await request.get('/places/v1/trips/999999'))

    const gps = `/places/v1/attachment-exif-gps/${postId}`
    await check('/places/v1/attachment-exif-gps/{id}', 'get', await request.get(gps))
    await check('/places/v1/attachment-exif-gps/{id}', 'get', await request.get(gps, { headers: { Authorization: 'Basic d3Jvbmc6d3Jvbmc=' } }))
    await check('/places/v1/attachment-exif-gps/{id}', 'get', await request.get('/places/v1/attachment-exif-gps/999999', { headers: { Authorization: basic } }))
    await check('/places/v1/attachment-exif-gps/{id}', 'get', await request.get(gps, { headers: { Authorization: basic } }))

    const upload = (file: Buffer, query = `post=${postId}`, headers: Record<string, string> = { Authorization: basic }) =>
      request.post(`/places/v1/media?${query}`, {
        data: file,
        headers: { 'Content-Disposition': 'attachment; filename="photo.jpg"', 'Content-Type': 'image/jpeg', ...headers },
      })
    const jpeg = readFileSync(path.join(ROOT, 'test', 'fixtures', 'exif', 'gox_gps.jpg'))
    const created = await upload(jpeg)
    await check('/places/v1/media', 'post', created)
    await check('/places/v1/media', 'post', await upload(Buffer.from('just text')))
    await check('/places/v1/media', 'post', await upload(jpeg, 'post=abc'))
    await check('/places/v1/media', 'post', await upload(jpeg, `post=${postId}`, {}))
    await check('/places/v1/media', 'post', await upload(jpeg, 'post=999999'))
    await check('/places/v1/media', 'post', await upload(jpeg.subarray(0, Math.floor(jpeg.length / 2))))
    // The user's four uploads at once held open (e2e/api/upload-limit.spec.ts): a fifth is refused.
    const held = await Promise.all(
      [0, 1, 2, 3].map((i) => holdUpload({ baseURL: baseURL!, uploadsDir }, postId, `places-e2e-openapi-held-${i}-${Date.now()}`, basic)),
    )
    await check('/places/v1/media', 'post', await upload(jpeg))
    for (const answer of await Promise.all(held.map((upload) => upload.finish()))) expect(answer.status, answer.body).toBe(201)
    // Now the post has a photo with GPS: the route's 200.
    await check('/places/v1/attachment-exif-gps/{id}', 'get', await request.get(gps, { headers: { Authorization: basic } }))

    // WordPress's own routes under /wp-json: the index (docs/api.md, Discovery) and oEmbed.
    await check('/wp-json/', 'get', await request.get('/wp-json/'))
    const indexEtag = (await request.get('/wp-json/')).headers().etag!
    await check('/wp-json/', 'get', await request.get('/wp-json/', { headers: { 'If-None-Match': indexEtag } }))
    await check('/wp-json/oembed/1.0/embed', 'get', await request.get(`/wp-json/oembed/1.0/embed?url=${encodeURIComponent(`${baseURL}/`)}`))
    await check('/wp-json/oembed/1.0/embed', 'get', await request.get('/wp-json/oembed/1.0/embed'))
    await check('/wp-json/oembed/1.0/embed', 'get', await request.get('/wp-json/oembed/1.0/embed?url=https%3A%2F%2Felsewhere.example%2F'))

    await check('/ogc', 'get', await request.get('/ogc'))
    await check('/ogc', 'get', await request.get('/ogc?f=xml'))
    await check('/ogc/api', 'get', await request.get('/ogc/api'))
    await check('/ogc/conformance', 'get', await request.get('/ogc/conformance'))
    await check('/ogc/conformance', 'get', await request.get('/ogc/conformance?f=xml'))
    await check('/ogc/collections', 'get', await request.get('/ogc/collections'))
    await check('/ogc/collections', 'get', await request.get('/ogc/collections?f=xml'))
    await check('/ogc/collections/{collectionId}', 'get', await request.get('/ogc/collections/post'))
    await check('/ogc/collections/{collectionId}', 'get', await request.get('/ogc/collections/post?f=xml'))
    await check('/ogc/collections/{collectionId}', 'get', await request.get('/ogc/collections/none'))
    const items = await request.get('/ogc/collections/post/items?limit=2')
    await check('/ogc/collections/{collectionId}/items', 'get', items)
    await check('/ogc/collections/{collectionId}/items', 'get', await request.get('/ogc/collections/post/items?limit=0'))
    await check('/ogc/collections/{collectionId}/items', 'get', await request.get('/ogc/collections/none/items'))
    const itemId = ((await items.json()) as { features: { id: number }[] }).features[0]!.id
    await check('/ogc/collections/{collectionId}/items/{featureId}', 'get', await request.get(`/ogc/collections/post/items/${itemId}`))
    await check('/ogc/collections/{collectionId}/items/{featureId}', 'get', await request.get('/ogc/collections/post/items/999999'))
    await check('/ogc/collections/{collectionId}/items/{featureId}', 'get', await request.get(`/ogc/collections/post/items/${itemId}?f=xml`))
    for (const [pathKey, url] of [
      ['/ogc', '/ogc'],
      ['/ogc/conformance', '/ogc/conformance'],
      ['/ogc/collections', '/ogc/collections'],
      ['/ogc/collections/{collectionId}', '/ogc/collections/post'],
      ['/ogc/collections/{collectionId}/items', '/ogc/collections/post/items?limit=2'],
      ['/ogc/collections/{collectionId}/items/{featureId}', `/ogc/collections/post/items/${itemId}`],
    ]) {
      await check(pathKey!, 'get', await notModified(url!))
    }

    const documented = Object.entries(document.paths).flatMap(([p, item]) =>
      operationsOf(item).flatMap(([method, op]) =>
        Object.keys(op.responses)
          .filter((s) => s !== '413')
          .map((s) => `${method} ${p} ${s}`),
      ),
    )
    expect([...checked].sort()).toEqual(documented.sort())
  })

  test('GET /places/v1 is the namespace index WordPress gives, listing every route', async ({ request, baseURL }) => {
    for (const prefix of ['', '/wp-json']) {
      const index = (await (await request.get(`${prefix}/places/v1`)).json()) as {
        namespace: string
        routes: Record<string, { methods: string[]; endpoints: { args: Record<string, { default?: unknown }> }[] }>
        _links: { up: { href: string }[] }
      }
      expect(index.namespace).toBe('places/v1')
      expect(Object.keys(index.routes).sort()).toEqual(
        Object.keys(document.paths)
          .filter((p) => p.startsWith('/places/v1'))
          .map((p) => p.replace(/\{(\w+)\}/g, '(?P<$1>[\\d]+)'))
          .sort(),
      )
      expect(index.routes['/places/v1/geojson/(?P<id>[\\d]+)']!.methods).toEqual(['GET'])
      expect(index.routes['/places/v1/geojson']!.endpoints[0]!.args.posts_per_page!.default).toBe('50')
      expect(index._links.up[0]!.href).toBe(`${baseURL}/wp-json/`)
    }
  })

  test('every route answers at each server the document names for it, and under no other', async ({ request, baseURL }) => {
    const collection = (await (await request.get('/places/v1/geojson?posts_per_page=1')).json()) as { features: { properties: { id: number } }[] }
    const id = String(collection.features[0]!.properties.id)
    const trips = (await (await request.get('/places/v1/trips')).json()) as { features: { properties: { id: number } }[] }
    const tripId = String(trips.features[0]!.properties.id)
    const concrete = (pathKey: string) =>
      pathKey.replace('/trips/{id}', `/trips/${tripId}`).replace('{id}', id).replace('{collectionId}', 'post').replace('{featureId}', id)
    const prefixes = ['', '/wp-json']
    for (const [pathKey, item] of Object.entries(document.paths)) {
      const servers = (item.servers ?? document.servers).map((server) => server.url)
      for (const [method] of operationsOf(item)) {
        for (const prefix of prefixes) {
          const url = `${baseURL}${prefix}${concrete(pathKey)}`
          // Without credentials: a protected route answers 401 where it exists, a missing one 404.
          const response = await request.fetch(url, { method, ...(method === 'post' ? { data: Buffer.from('x') } : {}) })
          const named = servers.includes(`${baseURL}${prefix}`)
          expect(
            response.status() !== 404,
            `${method.toUpperCase()} ${url}: ${response.status()}, ${named ? 'a server the document names' : 'no server the document names'}`,
          ).toBe(named)
        }
      }
    }
  })

  test('every route the app serves is in the document, with its methods', () => {
    // app/places/v1/…, app/ogc/… and app/wp-json/…: each route.ts is a path; [name] is the parameter {name}; [...rest] is the
    // catch-all that answers rest_no_route.
    const served: string[] = []
    const walk = (dir: string, urlPath: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory() && !entry.name.startsWith('[...')) walk(path.join(dir, entry.name), `${urlPath}/${entry.name.replace(/^\[(\w+)\]$/, '{$1}')}`)
        if (entry.isFile() && entry.name === 'route.ts') {
          const source = readFileSync(path.join(dir, entry.name), 'utf8')
          const methods = [...source.matchAll(/export (?:const |\{ \w+ as )(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!.toLowerCase())
          for (const method of methods) served.push(`${method} ${urlPath}`)
        }
      }
    }
    walk(path.join(ROOT, 'app', 'places', 'v1'), '/places/v1')
    walk(path.join(ROOT, 'app', 'ogc'), '/ogc')
    walk(path.join(ROOT, 'app', 'wp-json'), '/wp-json')
    // app/wp-json/route.ts is the index, which WordPress names with its slash.
    served[served.indexOf('get /wp-json')] = 'get /wp-json/'
    const documented = Object.entries(document.paths).flatMap(([p, item]) => operationsOf(item).map(([method]) => `${method} ${p}`))
    expect(served.sort()).toEqual(documented.sort())
  })
})
