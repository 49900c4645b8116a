import type { APIRequestContext, APIResponse } from '@playwright/test'
import { basic, expectPrivateNoStore, openSignIn, signIn, signInOrThrow } from '../support/auth'
import { expectWordPressError } from '../support/http'
import { PHOTOS, CORPUS_DIR } from '../support/media'
import { createAppPassword, createUser, importMedia, importPosts, listAppPasswords, places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'

// Application passwords (docs/api.md, Credentials: HTTP Basic `user:app-password`, as WordPress's; created,
// listed and revoked per user, shown once, stored hashed) and the sign-in of the session cookie, which slows down
// after repeated wrong passwords for an account.

let server: ServerEnv
let baseURL: string
let run: string
const owner = { email: '', password: '' }
const stranger = { email: '', password: '', appPassword: '' }
let postId: number

test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(300_000)
  baseURL = String(testInfo.project.use.baseURL)
  server = { databaseUrl, uploadsDir, baseURL }
  run = runId()
  Object.assign(owner, { email: `gps-auth-owner-${run}@e2e.test`, password: `gps-auth-owner-password-${run}` })
  Object.assign(stranger, { email: `gps-auth-stranger-${run}@e2e.test`, password: `gps-auth-stranger-password-${run}` })
  await createUser(server, owner.email, owner.password, 'author')
  await createUser(server, stranger.email, stranger.password, 'editor')
  stranger.appPassword = await createAppPassword(server, stranger.email, `stranger-${run}`)
  ;[postId] = (await importPosts(
    server,
    [{ type: 'Feature', geometry: null, properties: { title: `gps auth ${run}`, type: 'gpstest', status: 'draft' } }],
    owner.email,
  )) as [number]
  await importMedia(server, postId, [`${CORPUS_DIR}/${PHOTOS.nikon}`])
})

const route = () => `/places/v1/attachment-exif-gps/${postId}`

async function expectOk(response: APIResponse, what: string): Promise<void> {
  const text = await response.text()
  expect(response.status(), `${what}: ${text.slice(0, 200)}`).toBe(200)
  expect(Object.keys(JSON.parse(text)).sort(), what).toEqual(['attachment_id', 'attachment_title', 'latitude', 'longitude'])
}

async function expectInvalidCredentials(response: APIResponse, what: string): Promise<void> {
  await expectWordPressError(response, 401, 'rest_invalid_credentials', { cors: false })
  expectPrivateNoStore(response, what)
}

test.describe('application passwords', () => {
  test('the time of last use is recorded once the password is used', async ({ request }) => {
    const name = `last-used-${run}`
    const password = await createAppPassword(server, owner.email, name)
    const before = (await listAppPasswords(server, owner.email)).find((row) => row.name === name)!
    expect(before.lastUsedAt, 'a new password was never used').toBeNull()
    expect(JSON.stringify(before), 'the list never shows the secret').not.toContain(password)
    const start = Date.now()
    await expectOk(await request.get(route(), { headers: { Authorization: basic(owner.email, password) } }), 'first use')
    const after = (await listAppPasswords(server, owner.email)).find((row) => row.name === name)!
    expect(after.lastUsedAt, 'lastUsedAt after a use').not.toBeNull()
    const lastUsed = Date.parse(after.lastUsedAt!)
    expect(lastUsed).toBeGreaterThanOrEqual(Date.parse(after.createdAt))
    expect(lastUsed).toBeGreaterThanOrEqual(start - 5_000)
    expect(lastUsed).toBeLessThanOrEqual(Date.now() + 5_000)
  })

  test("a revoked password is refused at once; the user's other passwords still work", async ({ request }) => {
    const kept = await createAppPassword(server, owner.email, `kept-${run}`)
    const name = `to-revoke-${run}`
    const password = await createAppPassword(server, owner.email, name)
    await expectOk(await request.get(route(), { headers: { Authorization: basic(owner.email, password) } }), 'before revoking')
    const { uuid } = (await listAppPasswords(server, owner.email)).find((row) => row.name === name)!
    await places(server, 'app-password', 'revoke', '--user', owner.email, '--id', uuid)
    expect((await listAppPasswords(server, owner.email)).map((row) => row.name)).not.toContain(name)
    await expectInvalidCredentials(await request.get(route(), { headers: { Authorization: basic(owner.email, password) } }), 'revoked')
    await expectOk(await request.get(route(), { headers: { Authorization: basic(owner.email, kept) } }), 'another password of the same user')
  })

  test("a valid password with another user's email, or an unknown email, is 401 rest_invalid_credentials", async ({ request }) => {
    const password = await createAppPassword(server, owner.email, `borrowed-${run}`)
    await expectOk(await request.get(route(), { headers: { Authorization: basic(owner.email, password) } }), 'its own user')
    // The stranger is an editor, who could read this route: the password must not lend the owner's access to them…
    await expectInvalidCredentials(await request.get(route(), { headers: { Authorization: basic(stranger.email, password) } }), "another user's email")
    // …nor the stranger's password the owner's.
    await expectInvalidCredentials(
      await request.get(route(), { headers: { Authorization: basic(owner.email, stranger.appPassword) } }),
      "another user's password",
    )
    await expectInvalidCredentials(await request.get(route(), { headers: { Authorization: basic(`nobody-${run}@e2e.test`, password) } }), 'an unknown email')
  })

  test('as WordPress: the email in any case, the password with the spaces it is shown with', async ({ request }) => {
    const password = await createAppPassword(server, owner.email, `spaced-${run}`)
    const spaced = password.replace(/(.{4})(?!$)/g, '$1 ')
    expect(spaced).toContain(' ')
    await expectOk(await request.get(route(), { headers: { Authorization: basic(owner.email.toUpperCase(), password) } }), 'upper-case email')
    await expectOk(await request.get(route(), { headers: { Authorization: basic(owner.email, spaced) } }), 'in groups of four')
    await expectOk(
      await request.get(route(), { headers: { Authorization: `basic ${Buffer.from(`${owner.email}:${password}`).toString('base64')}` } }),
      'lower-case scheme',
    )
  })

  test('malformed Basic headers are 401 JSON, never a 500', async ({ request }) => {
    const password = await createAppPassword(server, owner.email, `malformed-${run}`)
    const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64')
    const headers: [string, string][] = [
      ['not base64', 'Basic !!!not-base64!!!'],
      ['base64 without a colon', `Basic ${b64('no-colon-in-here')}`],
      ['an empty user', `Basic ${b64(`:${password}`)}`],
      ['an empty password', `Basic ${b64(`${owner.email}:`)}`],
      ['only a colon', `Basic ${b64(':')}`],
      ['padding only', 'Basic ===='],
      ['base64 cut short', `Basic ${b64(`${owner.email}:${password}`).slice(0, -3)}`],
      ['two tokens', `Basic ${b64(`${owner.email}:${password}`)} ${b64('x:y')}`],
      ['bytes that are not UTF-8', `Basic ${b64(Buffer.from([0xff, 0xfe, 0x3a, 0xc3, 0x28]))}`],
      ['a NUL byte', `Basic ${b64(`${owner.email}\0:${password}`)}`],
      // Long, but within what an HTTP server accepts in its headers (Node: 16 KB in all).
      ['a long value', `Basic ${'QUFB'.repeat(2000)}`],
      ['a long password', `Basic ${b64(`${owner.email}:${'x'.repeat(6_000)}`)}`],
      ['URL-safe base64', `Basic ${b64(`${owner.email}:${password}?>?>`).replace(/\+/g, '-').replace(/\//g, '_')}`],
    ]
    for (const [what, value] of headers) {
      await test.step(what, async () => {
        await expectWordPressError(await request.get(route(), { headers: { Authorization: value } }), 401, 'rest_invalid_credentials', { cors: false })
        const upload = await request.post(`/places/v1/media?post=${postId}`, {
          headers: { Authorization: value, 'Content-Disposition': 'attachment; filename="x.jpg"' },
          data: Buffer.from('x'),
        })
        await expectWordPressError(upload, 401, 'rest_invalid_credentials', { cors: false })
      })
    }
    // An Authorization header with no credentials in it is no credentials.
    for (const value of ['Basic', 'Basic ', 'Bearer', 'Bearer abc.def.ghi', 'Digest username="x"']) {
      const response = await request.get(route(), { headers: { Authorization: value } })
      const text = await response.text()
      expect(response.status(), `${value}: ${text}`).toBe(401)
      expect(['rest_forbidden', 'rest_invalid_credentials'], value).toContain(JSON.parse(text).code)
      expectPrivateNoStore(response, value)
    }
  })
})

test.describe('sign-in', () => {
  test('a session cookie signs in with the account password, not with an application password', async ({ playwright }) => {
    const context = await signInOrThrow(playwright.request, baseURL, owner.email, owner.password)
    try {
      await expectOk(await context.get(route()), 'signed in')
    } finally {
      await context.dispose()
    }
    // An application password is for programs (as in WordPress): it does not sign a browser in.
    const appPassword = await createAppPassword(server, owner.email, `not-for-sign-in-${run}`)
    const attempt = await signIn(playwright.request, baseURL, owner.email, appPassword, { 'X-Forwarded-For': '192.0.2.77' })
    try {
      expect(attempt.ok, attempt.url).toBe(false)
      expect((await attempt.context.get(route())).status()).toBe(401)
    } finally {
      await attempt.context.dispose()
    }
  })

  test('after several wrong passwords the account is refused even the right one, for a while; other accounts still sign in', async ({ playwright }) => {
    test.setTimeout(300_000)
    const email = `gps-throttled-${run}@e2e.test`
    const password = `gps-throttled-password-${run}`
    const other = { email: `gps-not-throttled-${run}@e2e.test`, password: `gps-not-throttled-password-${run}` }
    await createUser(server, email, password, 'author')
    await createUser(server, other.email, other.password, 'author')
    // Each attempt names its client address (X-Forwarded-For, as a proxy in front of the app sends it), so that
    // this test's failures are not those of the other tests' client.
    let last = Math.floor(Math.random() * 200)
    const address = () => `198.51.100.${(++last % 254) + 1}`
    const attacker = { 'X-Forwarded-For': address() }
    const contexts: APIRequestContext[] = []
    try {
      const first = await signIn(playwright.request, baseURL, email, password, { 'X-Forwarded-For': address() })
      contexts.push(first.context)
      expect(first.ok, `the right password works at first: ${first.url}`).toBe(true)

      // The forms are opened first, so that the attempts after the wrong ones follow them at once.
      const attackerForm = await openSignIn(playwright.request, baseURL)
      const [sameAddressForm, otherAddressForm] = [await openSignIn(playwright.request, baseURL), await openSignIn(playwright.request, baseURL)]
      contexts.push(attackerForm.context, sameAddressForm.context, otherAddressForm.context)
      for (let i = 0; i < 5; i++) {
        const wrong = await attackerForm.submit(email, `wrong-${i}-${password}`, attacker)
        expect(wrong.ok, `wrong password ${i + 1}`).toBe(false)
        expect(wrong.url, `wrong password ${i + 1}`).toMatch(/[?&]error=/)
      }
      // Right away: the right password, from the same address and from another (the account is held, not only
      // the address the wrong passwords came from).
      const refused = await sameAddressForm.submit(email, password, attacker)
      const elsewhere = await otherAddressForm.submit(email, password, { 'X-Forwarded-For': address() })
      expect(refused.ok, `the right password right after: ${refused.url}`).toBe(false)
      expect(refused.url).toMatch(/[?&]error=/)
      expect(elsewhere.ok, `the right password from another address: ${elsewhere.url}`).toBe(false)
      expect(elsewhere.url).toMatch(/[?&]error=/)
      const session = await (await refused.context.get('/api/auth/session')).json()
      expect(session?.user, 'no session').toBeFalsy()
      expect((await refused.context.get(route())).status(), 'the route sees no one').toBe(401)

      // Another account signs in meanwhile, from anywhere.
      for (const headers of [{ 'X-Forwarded-For': address() }, {}] as Record<string, string>[]) {
        const another = await signIn(playwright.request, baseURL, other.email, other.password, headers)
        contexts.push(another.context)
        expect(another.ok, `another account (${JSON.stringify(headers)}): ${another.url}`).toBe(true)
      }

      // For a while only: the right password works again later.
      const deadline = Date.now() + 90_000
      let later = await signIn(playwright.request, baseURL, email, password, { 'X-Forwarded-For': address() })
      contexts.push(later.context)
      while (!later.ok && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 2_000))
        later = await signIn(playwright.request, baseURL, email, password, { 'X-Forwarded-For': address() })
        contexts.push(later.context)
      }
      expect(later.ok, `the right password, later: ${later.url}`).toBe(true)
    } finally {
      await Promise.all(contexts.map((context) => context.dispose()))
    }
  })
})
