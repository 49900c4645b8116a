import { expectCors, expectGeoJsonContentType, expectWordPressError, PREFIXES } from '../support/http'
import { fixturePost } from '../support/places'
import { expect, test } from '../support/test'

// docs/api.md, Caching: the geojson routes allow cross-origin GET (CORS). Successes are GeoJSON
// (application/geo+json, RFC 7946), errors are JSON.

const ORIGIN = 'https://maps.example.org'

test.describe('headers', () => {
  for (const prefix of PREFIXES) {
    test(`${prefix}: a success is application/geo+json, with Access-Control-Allow-Origin: *`, async ({ request }) => {
      for (const path of ['/geojson', '/geojson?post_type=landmark', '/geojson?post_type=nosuchtype', '/geojson/1001']) {
        const response = await request.get(`${prefix}${path}`, { headers: { Origin: ORIGIN } })
        expect(response.status(), path).toBe(200)
        expectGeoJsonContentType(response)
        expectCors(response)
      }
    })

    test(`${prefix}: the errors of the geojson routes are application/json and carry CORS too`, async ({ request }) => {
      const cases: [string, number, string][] = [
        ['/geojson/999999', 404, 'rest_post_invalid_id'],
        [`/geojson/${fixturePost('Draft Place').id}`, 404, 'rest_post_invalid_id'],
        [`/geojson/${fixturePost('Hidden Location Place').id}`, 404, 'rest_no_geodata'],
        ['/geojson/abc', 404, 'rest_no_route'],
        ['/geojson?posts_per_page=0', 400, 'rest_invalid_param'],
        ['/geojson?category=1.5', 400, 'rest_invalid_param'],
      ]
      for (const [path, status, code] of cases) {
        const response = await request.get(`${prefix}${path}`, { headers: { Origin: ORIGIN } })
        await expectWordPressError(response, status, code, { cors: true })
      }
    })

    test(`${prefix}: an OPTIONS preflight from another origin is allowed for GET`, async ({ request }) => {
      for (const path of ['/geojson', '/geojson/1001']) {
        const response = await request.fetch(`${prefix}${path}`, {
          method: 'OPTIONS',
          headers: {
            Origin: ORIGIN,
            'Access-Control-Request-Method': 'GET',
            'Access-Control-Request-Headers': 'if-none-match',
          },
        })
        expect(response.status(), path).toBeGreaterThanOrEqual(200)
        expect(response.status(), path).toBeLessThan(300)
        const headers = response.headers()
        expect(['*', ORIGIN], path).toContain(headers['access-control-allow-origin'])
        const methods = (headers['access-control-allow-methods'] ?? '').toUpperCase()
        expect(methods === '*' || methods.split(/\s*,\s*/).includes('GET'), `Allow-Methods: ${methods}`).toBe(true)
        const allowed = (headers['access-control-allow-headers'] ?? '').toLowerCase()
        expect(allowed === '*' || allowed.split(/\s*,\s*/).includes('if-none-match'), `Allow-Headers: ${allowed}`).toBe(true)
      }
    })
  }
})
