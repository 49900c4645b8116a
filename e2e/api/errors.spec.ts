import { expectNoLeak, expectWordPressError, PREFIXES } from '../support/http'
import { fixturePost } from '../support/places'
import { expect, test } from '../support/test'

// docs/api.md, Errors: every error is `{"code","message","data":{"status"}}` with the HTTP status, a stable code,
// never a stack trace or SQL. Unknown routes answer as WordPress's REST server does: 404 rest_no_route.

test.describe('errors', () => {
  for (const prefix of PREFIXES) {
    test(`${prefix}: an unknown path under the namespace is 404 rest_no_route`, async ({ request }) => {
      for (const path of ['/nope', '/geojsons', '/geojson/1001/extra', '/geojson/abc/def', '/attachments', '/a/b/c/d']) {
        // CORS on these is not asked of routes that do not exist.
        await expectWordPressError(await request.get(`${prefix}${path}`), 404, 'rest_no_route', { cors: false })
      }
    })
  }

  for (const prefix of PREFIXES) {
    test(`${prefix}: a malformed percent-encoding in the path is 404 rest_no_route, not a 500`, async ({ request }) => {
      // %FF and a cut-off %E2%82 are not UTF-8: such a path names no route (the id is not a number, or the path is unknown).
      for (const path of ['/geojson/%FF', '/geojson/1001%FF', '/geojson/%E2%82', '/nope%FF']) {
        await expectWordPressError(await request.get(`${prefix}${path}`), 404, 'rest_no_route', { cors: false })
      }
    })
  }

  test('the version is in the namespace: /places/v2 is not this API', async ({ request }) => {
    for (const path of ['/places/v2/geojson', '/places/v2/geojson/1001', '/wp-json/places/v2/geojson']) {
      const response = await request.get(path)
      expect(response.status(), path).toBe(404)
      expect(response.headers()['content-type'], path).not.toMatch(/geo\+json/)
    }
  })

  test('the error body is exactly code, message and data, with data.status equal to the HTTP status', async ({ request }) => {
    const cases: [string, number, string][] = [
      ['/places/v1/geojson/999999', 404, 'rest_post_invalid_id'],
      [`/places/v1/geojson/${fixturePost('No Geometry Place').id}`, 404, 'rest_no_geodata'],
      ['/places/v1/geojson/abc', 404, 'rest_no_route'],
      ['/places/v1/geojson?posts_per_page=0', 400, 'rest_invalid_param'],
      ['/places/v1/geojson?category=abc', 400, 'rest_invalid_param'],
    ]
    for (const [path, status, code] of cases) {
      const response = await request.get(path)
      const body = await expectWordPressError(response, status, code)
      expect(body.data.status, path).toBe(response.status())
    }
  })

  test('the messages are human text, not the code repeated', async ({ request }) => {
    for (const path of ['/places/v1/geojson/999999', '/places/v1/geojson/abc', '/places/v1/geojson?posts_per_page=abc']) {
      const body = await (await request.get(path)).json()
      expect(body.message, path).not.toBe(body.code)
      expect(body.message, path).toMatch(/\s/)
    }
  })

  test('hostile input is a clean error, never a 500, a stack trace or SQL', async ({ request }) => {
    const hostile = [
      "/places/v1/geojson?category=1'%20OR%201=1--",
      '/places/v1/geojson?category=1;DROP%20TABLE%20posts',
      '/places/v1/geojson?posts_per_page=1%20UNION%20SELECT%201',
      "/places/v1/geojson?post_type=post'%20OR%20'1'='1",
      '/places/v1/geojson?posts_per_page=%00',
      '/places/v1/geojson?category=%E2%80%8B',
      `/places/v1/geojson?posts_per_page=${'9'.repeat(2000)}`,
      `/places/v1/geojson?category=${'9'.repeat(2000)}`,
      "/places/v1/geojson/1001'",
      '/places/v1/geojson/1001%00',
      '/places/v1/geojson/%E2%80%8B',
      '/places/v1/geojson/..%2F..%2Fetc%2Fpasswd',
    ]
    for (const path of hostile) {
      const response = await request.get(path)
      const text = await response.text()
      expect(response.status(), `${path}: ${text.slice(0, 300)}`).toBeLessThan(500)
      expectNoLeak(text)
      if (response.status() >= 400) {
        const body = JSON.parse(text)
        expect(Object.keys(body).sort(), path).toEqual(['code', 'data', 'message'])
        expect(body.data.status, path).toBe(response.status())
      }
    }
    // The hostile post_type found nothing, and the posts are still there.
    const after = await request.get('/places/v1/geojson?posts_per_page=1')
    expect((await after.json()).features).toHaveLength(1)
  })

  test('the routes are read-only: POST, PUT, PATCH, DELETE do not succeed and do not change anything', async ({ request }) => {
    const before = await (await request.get('/places/v1/geojson/1001')).text()
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const path of ['/places/v1/geojson', '/places/v1/geojson/1001', '/wp-json/places/v1/geojson/1001']) {
        const response = await request.fetch(path, { method, data: { title: 'changed' } })
        expect(response.status(), `${method} ${path}`).toBeGreaterThanOrEqual(400)
        expect(response.status(), `${method} ${path}`).toBeLessThan(500)
        expectNoLeak(await response.text())
      }
    }
    expect(await (await request.get('/places/v1/geojson/1001')).text()).toBe(before)
  })
})
