import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { restIndexSchema } from './contract'
import { getOpenApiDocument } from './openapi'
import { getRestIndex, restIndexBody } from './rest-index'

describe('the REST index (GET /wp-json/)', () => {
  const config = { siteUrl: 'https://places.example', sharedCacheSeconds: 30 }
  const site = { name: 'Places', description: 'Geotagged posts on a map', timezone: 'UTC', gmtOffset: 0 }
  const index = getRestIndex(config, site)

  test('has the shape the contract gives it, with the site as url and home', () => {
    assert.ok(restIndexSchema.safeParse(index).success)
    assert.equal(index.url, 'https://places.example')
    assert.equal(index.home, 'https://places.example')
    assert.deepEqual(index.namespaces, ['oembed/1.0', 'places/v1'])
  })

  test('lists what answers under /wp-json, keyed as WordPress keys routes, and nothing of /ogc', () => {
    const document = getOpenApiDocument(config)
    const places = Object.keys(document.paths).filter((path) => path.startsWith('/places/v1'))
    assert.deepEqual(Object.keys(index.routes).sort(), ['/', '/oembed/1.0/embed', ...places.map((path) => path.replace(/\{(\w+)\}/g, '(?P<$1>[\\d]+)'))].sort())
    assert.equal(index.routes['/']!.namespace, '')
    assert.deepEqual(index.routes['/']!._links, { self: [{ href: 'https://places.example/wp-json/' }] })
    assert.equal(index.routes['/places/v1/geojson/(?P<id>[\\d]+)']!._links, undefined, 'no self link for a route with a parameter')
  })

  test("each route's arguments are its OpenAPI parameters, without headers", () => {
    const args = index.routes['/places/v1/media']!.endpoints[0]!.args
    assert.deepEqual(Object.keys(args).sort(), ['post', 'title'])
    assert.equal(args.post!.required, true)
    assert.equal(index.routes['/places/v1/geojson/(?P<id>[\\d]+)']!.endpoints[0]!.args.id!.required, true)
    assert.deepEqual(index.routes['/oembed/1.0/embed']!.endpoints[0]!.args.format, {
      type: 'string',
      required: false,
      description: 'The oEmbed response format.',
      default: 'json',
    })
  })

  test('its bytes and ETag are made once per configuration and site', () => {
    const first = restIndexBody(config, site)
    assert.equal(restIndexBody(config, { ...site }), first)
    const other = restIndexBody({ ...config, siteUrl: 'https://elsewhere.example' }, site)
    assert.notEqual(other.etag, first.etag)
    assert.ok(other.body.includes('https://elsewhere.example/wp-json/'))
    const kolkata = restIndexBody(config, { ...site, name: 'Chai & maps', timezone: 'Asia/Kolkata', gmtOffset: 5.5 })
    assert.notEqual(kolkata.etag, first.etag)
    assert.deepEqual(JSON.parse(kolkata.body), { ...getRestIndex(config, site), name: 'Chai & maps', timezone_string: 'Asia/Kolkata', gmt_offset: 5.5 })
  })
})
