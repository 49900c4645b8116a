import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import type { Feature } from './places'

/** Both places where the routes answer (docs/api.md, URLs). */
export const PREFIXES = ['/places/v1', '/wp-json/places/v1'] as const

// What a leaked stack trace, file path or SQL statement looks like.
const LEAKS = [
  /\bat [\w.<>$]+ \(/, // "at fn (file:line)"
  /\bat (?:file|node):/,
  /\.(?:ts|tsx|js|mjs|cjs):\d+/,
  /node_modules/,
  /\/work\/|\/home\/|\/app\//,
  /\bSELECT\b[\s\S]*\bFROM\b/i,
  /\b(?:INSERT INTO|UPDATE \S+ SET|DELETE FROM)\b/i,
  /\bprisma\b/i,
  /\bsqlite\b/i,
  /\bpostgres(?:ql)?\b/i,
  /syntax error/i,
  /\bstack\b/i,
]

export function expectNoLeak(text: string): void {
  for (const leak of LEAKS) expect(text, `the response must not leak internals (${leak})`).not.toMatch(leak)
}

export function expectCors(response: APIResponse): void {
  expect(response.headers()['access-control-allow-origin'], 'Access-Control-Allow-Origin').toBe('*')
}

export function expectGeoJsonContentType(response: APIResponse): void {
  expect(response.headers()['content-type'], 'Content-Type').toMatch(/^application\/geo\+json(\s*;.*)?$/)
}

export type WordPressError = { code: string; message: string; data: { status: number } & Record<string, unknown> }

/**
 * A WordPress-shaped error (docs/api.md, Errors): this status, `{"code","message","data":{"status"}}` with this
 * code and the same status, a human message, JSON, never a stack trace or SQL.
 */
export async function expectWordPressError(
  response: APIResponse,
  status: number,
  code: string,
  { cors = true }: { cors?: boolean } = {},
): Promise<WordPressError> {
  const text = await response.text()
  expect(response.status(), `status of ${response.url()}: ${text.slice(0, 300)}`).toBe(status)
  expect(response.headers()['content-type'], 'an error is JSON').toMatch(/^application\/json(\s*;.*)?$/)
  const body = JSON.parse(text) as WordPressError
  expect(Object.keys(body).sort()).toEqual(['code', 'data', 'message'])
  expect(body.code).toBe(code)
  expect(typeof body.message).toBe('string')
  expect(body.message.trim().length).toBeGreaterThan(0)
  expect(typeof body.data).toBe('object')
  expect(body.data.status).toBe(status)
  expectNoLeak(text)
  if (cors) expectCors(response)
  return body
}

export type Collection = { type: string; features: Feature[] }

/** GET {prefix}/geojson{query}, which must succeed: a GeoJSON FeatureCollection. */
export async function getCollection(request: APIRequestContext, query = '', prefix = '/places/v1'): Promise<Collection> {
  const response = await request.get(`${prefix}/geojson${query}`)
  const text = await response.text()
  expect(response.status(), `GET ${prefix}/geojson${query}: ${text.slice(0, 300)}`).toBe(200)
  expectGeoJsonContentType(response)
  const collection = JSON.parse(text) as Collection
  expect(collection.type).toBe('FeatureCollection')
  expect(Array.isArray(collection.features)).toBe(true)
  return collection
}

/**
 * docs/api.md, The Feature: a Feature is exactly type, geometry and properties; a Point geometry of two numbers
 * [longitude, latitude]; properties exactly id (number), title, url and address (strings).
 */
export function expectFeatureShape(feature: Feature): void {
  expect(Object.keys(feature).sort()).toEqual(['geometry', 'properties', 'type'])
  expect(feature.type).toBe('Feature')
  expect(Object.keys(feature.geometry).sort()).toEqual(['coordinates', 'type'])
  expect(feature.geometry.type).toBe('Point')
  expect(Array.isArray(feature.geometry.coordinates)).toBe(true)
  expect(feature.geometry.coordinates).toHaveLength(2)
  for (const c of feature.geometry.coordinates) expect(typeof c).toBe('number')
  expect(Object.keys(feature.properties).sort()).toEqual(['address', 'id', 'title', 'url'])
  expect(typeof feature.properties.id).toBe('number')
  for (const name of ['title', 'url', 'address'] as const) expect(typeof feature.properties[name]).toBe('string')
}
