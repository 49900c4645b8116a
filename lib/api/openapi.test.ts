import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { z } from 'zod'
import { mapCollectionSchema, placeCollectionSchema, placeFeatureSchema } from './contract'
import { Validator } from '@seriousme/openapi-schema-validator'
import { getOgcOpenApiDocument, getOpenApiDocument } from './openapi'

type Header = { schema: { const?: string } }

describe('the OpenAPI document', () => {
  const document = getOpenApiDocument({ siteUrl: 'https://places.example', sharedCacheSeconds: 30 })

  test('Cache-Control of the GeoJSON routes names SHARED_CACHE_SECONDS as configured', () => {
    for (const path of ['/places/v1/geojson', '/places/v1/geojson/{id}']) {
      const headers = document.paths[path]!.get!.responses['200']!.headers as Record<string, Header>
      assert.equal(headers['Cache-Control']!.schema.const, 'public, max-age=0, s-maxage=30', path)
    }
  })

  test('places/v1 is served at the site and under /wp-json; /ogc only at the site', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const servers = (item.servers ?? document.servers).map((server) => server.url)
      assert.deepEqual(servers, path.startsWith('/places/v1') ? ['https://places.example', 'https://places.example/wp-json'] : ['https://places.example'], path)
    }
  })

  test('every component is a zod schema of lib/api/contract.ts, by id', () => {
    const ids = (schema: z.ZodType) => z.globalRegistry.get(schema)?.id
    for (const schema of [placeFeatureSchema, placeCollectionSchema, mapCollectionSchema]) {
      assert.ok(document.components.schemas[String(ids(schema))], String(ids(schema)))
    }
    assert.equal(JSON.stringify(document).includes('#/$defs/'), false, 'every reference points at a component')
  })
})

describe('the OGC API’s own document (the oas30 class)', () => {
  const config = { siteUrl: 'https://places.example', sharedCacheSeconds: 30 }
  const document = getOgcOpenApiDocument(config)

  test('is valid OpenAPI 3.0', async () => {
    const result = await new Validator().validate(document)
    assert.deepEqual(result.errors ?? [], [])
    assert.equal(document.openapi, '3.0.3')
  })

  test('has the OGC paths of the site’s document, relative to /ogc, with their operations', () => {
    const site = getOpenApiDocument(config)
    const ogcPaths = Object.keys(site.paths).filter((path) => path === '/ogc' || path.startsWith('/ogc/'))
    assert.deepEqual(Object.keys(document.paths).sort(), ogcPaths.map((path) => path.slice('/ogc'.length) || '/').sort())
    for (const path of ogcPaths) assert.equal(document.paths[path.slice('/ogc'.length) || '/']!.get!.operationId, site.paths[path]!.get!.operationId)
    assert.deepEqual(document.servers, [{ url: 'https://places.example/ogc', description: 'This site' }])
  })

  test('has every component it refers to, and no other', () => {
    const referred = new Set([...JSON.stringify(document).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]))
    assert.deepEqual(Object.keys(document.components.schemas).sort(), [...referred].sort())
    assert.ok(referred.has('OgcItems'))
  })
})

describe('the answers’ schemas', () => {
  const feature = {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [2.35, 48.85] },
    properties: { id: 1, title: 'Paris', url: 'https://places.example/post/paris', address: '' },
  }
  const cluster = {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [2, 48] },
    properties: { cluster: true, cluster_id: 1_066_000, point_count: 3, expansion_zoom: 5 },
    bbox: [1.9, 47.9, 2.1, 48.1],
  }

  test('a Feature has exactly its four properties', () => {
    assert.ok(placeFeatureSchema.safeParse(feature).success)
    assert.equal(placeFeatureSchema.safeParse({ ...feature, properties: { ...feature.properties, author: 'x' } }).success, false)
    assert.equal(placeFeatureSchema.safeParse({ ...feature, geometry: { type: 'Point', coordinates: [48.85, 200] } }).success, false)
  })

  test('a map collection carries total and extent, and may hold clusters', () => {
    assert.ok(mapCollectionSchema.safeParse({ type: 'FeatureCollection', total: 4, extent: [-10, 35, 30, 60], features: [feature, cluster] }).success)
    assert.ok(mapCollectionSchema.safeParse({ type: 'FeatureCollection', total: 0, extent: null, features: [] }).success)
    assert.equal(placeCollectionSchema.safeParse({ type: 'FeatureCollection', features: [cluster] }).success, false)
  })
})
