import { expect, test } from '../support/test'

// docs/api.md, URLs: routes are served at /places/v1/...; the same routes also answer at /wp-json/places/v1/...
// so that clients written for the WordPress plugin work unchanged.

const PATHS = [
  '/geojson',
  '/geojson?posts_per_page=7',
  '/geojson?post_type=landmark&post_status=draft',
  '/geojson?posts_per_page=-1',
  '/geojson?category=1',
  '/geojson?category=999999',
  '/geojson/1001',
  '/geojson/0001001',
  '/geojson/1005',
  '/geojson/999999',
  '/geojson/1020',
  '/geojson/1025',
  '/geojson/abc',
  '/geojson?posts_per_page=0',
  '/geojson?category=abc',
  '/nope',
]

test.describe('/wp-json/places/v1 alias', () => {
  test('answers every request exactly as /places/v1 does: status, content type, body', async ({ request }) => {
    for (const path of PATHS) {
      const direct = await request.get(`/places/v1${path}`)
      const alias = await request.get(`/wp-json/places/v1${path}`)
      expect(alias.status(), path).toBe(direct.status())
      expect(alias.headers()['content-type'], path).toBe(direct.headers()['content-type'])
      expect(await alias.text(), path).toBe(await direct.text())
    }
  })
})
