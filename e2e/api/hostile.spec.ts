import { expect, test } from '../support/test'
import { expectNoLeak } from '../support/http'

// Hostile and malformed input on every route: always a 4xx (or the normal 200 for what the contract ignores),
// never a 5xx, a stack trace or SQL. Errors keep WordPress's shape.

const IDS = [
  '-1',
  '0',
  '00',
  '0001',
  '99999999999999999999999',
  '2147483648',
  '1e3',
  '0x10',
  '1.0',
  ' 1',
  '١٢٣',
  'é',
  '%00',
  '1%00',
  '%2e%2e%2f',
  '..%2F..%2Fetc%2Fpasswd',
  "1'%20OR%20'1'='1",
  '%3Cscript%3E',
  'x'.repeat(5000),
  '%FF%FE',
]
const VALUES = [
  '',
  '-1',
  '0',
  'abc',
  '1.5',
  '1e309',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  'NaN',
  "' OR 1=1 --",
  '"; DROP TABLE posts; --',
  '<script>alert(1)</script>',
  '%00',
  '%FF',
  'ü',
  '[]',
  '{}',
  'x'.repeat(4000),
  '１２',
]
const PARAMS = ['posts_per_page', 'category', 'post_type', 'post_status', 'bbox', 'limit', 'offset']

async function expectSafe(response: Awaited<ReturnType<import('@playwright/test').APIRequestContext['get']>>, what: string) {
  const status = response.status()
  expect(status, `${what}: ${status}`).toBeLessThan(500)
  const text = await response.text()
  expectNoLeak(text)
  if (status >= 400 && status !== 431 && (response.headers()['content-type'] ?? '').includes('json')) {
    const body = JSON.parse(text) as { code: unknown; message: unknown; data: { status: unknown } }
    expect(typeof body.code, what).toBe('string')
    expect(typeof body.message, what).toBe('string')
    expect(body.data.status, what).toBe(status)
  }
  return status
}

test('hostile ids on every route with an id', async ({ request }) => {
  for (const route of ['/places/v1/geojson/', '/wp-json/places/v1/geojson/', '/places/v1/attachment-exif-gps/', '/ogc/collections/post/items/']) {
    for (const id of IDS) {
      const status = await expectSafe(await request.get(`${route}${id}`), `${route}${id.slice(0, 40)}`)
      expect([401, 403, 404, 400], `${route}${id.slice(0, 40)}`).toContain(status)
    }
  }
})

test('hostile, repeated and empty query parameters on the collection routes', async ({ request }) => {
  for (const route of ['/places/v1/geojson', '/ogc/collections/post/items']) {
    for (const name of PARAMS) {
      for (const value of VALUES) {
        await expectSafe(await request.get(`${route}?${name}=${encodeURIComponent(value)}`), `${route}?${name}=${value.slice(0, 30)}`)
      }
      await expectSafe(await request.get(`${route}?${name}=1&${name}=2&${name}=x`), `${route} repeated ${name}`)
      await expectSafe(await request.get(`${route}?${name}[]=1`), `${route} ${name}[]`)
    }
  }
})

test('malformed credentials and huge headers are refused cleanly', async ({ request }) => {
  const gps = '/places/v1/attachment-exif-gps/1001'
  for (const authorization of [
    'Basic',
    'Basic ',
    'Basic !!!!',
    'Basic ' + Buffer.from('no-colon').toString('base64'),
    'Basic ' + Buffer.from(':').toString('base64'),
    'Basic ' + Buffer.from('a@b.c:').toString('base64'),
    'Basic ' + 'A'.repeat(6000),
    'Bearer abc',
    'Digest x',
    'basic ' + Buffer.from('x@y.z:\u0000').toString('base64'),
  ]) {
    const status = await expectSafe(await request.get(gps, { headers: { Authorization: authorization } }), `Authorization: ${authorization.slice(0, 30)}`)
    expect([401, 403]).toContain(status)
  }
  for (const cookie of [
    'next-auth.session-token=garbage',
    `next-auth.session-token=${'x'.repeat(7000)}`,
    'next-auth.session-token=eyJhbGciOiJub25lIn0.eyJ1aWQiOjF9.',
  ]) {
    expect(await expectSafe(await request.get(gps, { headers: { Cookie: cookie } }), `cookie ${cookie.slice(0, 30)}`)).toBe(401)
  }
  // Past Node's header limit the server refuses the request itself (431), still without a 5xx.
  await expectSafe(await request.get('/places/v1/geojson', { headers: { Cookie: `a=${'x'.repeat(20_000)}` } }), 'a 20 KB cookie')
})

test('writes to the public routes and to unknown routes are refused', async ({ request }) => {
  for (const method of ['post', 'put', 'patch', 'delete'] as const) {
    for (const path of ['/places/v1/geojson', '/places/v1/geojson/1001', '/places/v1/nope', '/ogc/collections']) {
      const status = await expectSafe(await request[method](path, { data: '{"title":"x"}' }), `${method} ${path}`)
      expect(status).toBeGreaterThanOrEqual(400)
    }
  }
})

// Where next-auth sends a browser after signing in or out (its redirect callback; the sign-in page's own check is
// tested in Chromium, e2e/ui/sign-in-out.spec.ts): this site, whatever callbackUrl a forged form names.
const CALLBACKS = [
  'https://evil.example/',
  '//evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  'http://evil.example@127.0.0.1/',
  'javascript:alert(1)',
  '%2F%2Fevil.example',
  `/${'%2F'.repeat(2)}evil.example`,
]

test('sign-out redirects only to this site, whatever callbackUrl says', async ({ request, baseURL }) => {
  const origin = new URL(baseURL!).origin
  const { csrfToken } = (await (await request.get('/api/auth/csrf')).json()) as { csrfToken: string }
  for (const callbackUrl of CALLBACKS) {
    const response = await request.post('/api/auth/signout', { form: { csrfToken, callbackUrl, json: 'true' }, maxRedirects: 0 })
    await expectSafe(response, `sign-out to ${JSON.stringify(callbackUrl)}`)
    const { url } = (await response.json()) as { url: string }
    expect(new URL(url, baseURL).origin, `${JSON.stringify(callbackUrl)} → ${url}`).toBe(origin)
  }
})
