import { basic } from '../support/auth'
import { createAppPassword, createUser, mapLimit, runId, type ServerEnv } from '../support/places-cli'
import { ClientAt, type Attempt } from '../support/sign-in-from'
import { expect, test } from '../support/test'

// Sign-in under abuse (SECURITY.md: sign-in floods, hashing starvation, lockout): credentials too large to be real
// are refused before any work; the server hashes at most a few passwords at once and says when to come back; a
// client address has a budget of failures that X-Forwarded-For does not escape; strangers who lock an account
// out do not lock out its owner's browser. Each test sends from a 127.R.0.N of its own (support/sign-in-from.ts),
// so that the limits it exhausts are not those of the other tests' 127.0.0.1, nor those of its own run before (R is
// the repeat: the server keeps the limits in its database).

let server: ServerEnv
let run: string
const owner = { email: '', password: '' }
const other = { email: '', password: '' }

test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(120_000)
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
  run = runId()
  Object.assign(owner, { email: `abuse-owner-${run}@e2e.test`, password: `abuse-owner-password-${run}` })
  Object.assign(other, { email: `abuse-other-${run}@e2e.test`, password: `abuse-other-password-${run}` })
  await createUser(server, owner.email, owner.password, 'author')
  await createUser(server, other.email, other.password, 'author')
})

const at = (n: number) => new ClientAt(server.baseURL, `127.${test.info().repeatEachIndex + 1}.0.${n}`)

function expectThrottled(attempt: Attempt, message: RegExp, what: string): number {
  expect(attempt.status, `${what}: ${attempt.text.slice(0, 200)}`).toBe(429)
  expect(attempt.ok, what).toBe(false)
  expect(attempt.error, what).toMatch(message)
  const retryAfter = Number(attempt.headers['retry-after'])
  expect(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After of ${what}: ${attempt.headers['retry-after']}`).toBe(true)
  return retryAfter
}

const TOO_MANY_FAILURES = /^Too many failed sign-ins\. Try again in (\d+) seconds?\.$/

test('an email or password too large to be real is refused before any work; the server stays healthy', async () => {
  test.setTimeout(120_000)
  const client = at(11)
  const csrfToken = await client.csrfToken()
  // The attack that took the server past its heap: 200 sign-ins with 5 MB emails. Refused on their length alone.
  const huge = `${'a'.repeat(5 * 1024 * 1024)}@e2e.test`
  const start = performance.now()
  const answers = await mapLimit(
    Array.from({ length: 200 }, (_, i) => i),
    8,
    () => client.signIn(huge, 'password', { csrfToken }),
  )
  const seconds = (performance.now() - start) / 1000
  // 413, or (the server closing the connection on a body it will not read) no answer at all; never a sign-in.
  for (const answer of answers) expect([0, 413], answer.text.slice(0, 200)).toContain(answer.status)
  for (const answer of answers.filter((a) => a.status === 413)) expect(answer.error).toBe('The email address or password is too long.')
  // How many of the 413s reach the client before the server closes depends on the machine's load (99 of 200 in a
  // loaded run): that some do is what is asserted; that none is a sign-in, above.
  expect(answers.filter((a) => a.status === 413).length, 'the refusal is answered').toBeGreaterThan(0)
  expect(seconds, 'refused without reading: 1 GB sent in').toBeLessThan(60)
  console.log(
    `200 sign-ins with 5 MB emails refused in ${seconds.toFixed(1)} s (${answers.filter((a) => a.status === 413).length} answered 413, the others closed)`,
  )

  // Within the form's size but over the limits (254, 1,024): refused as wrong, and never counted. (Counted, the
  // fourth failure for one email would make the next attempt wait.)
  for (const [email, password] of [
    [`${'b'.repeat(300)}@e2e.test`, 'password'],
    [owner.email, 'p'.repeat(1025)],
  ] as const) {
    for (let i = 0; i < 6; i++) {
      const attempt = await client.signIn(email, password, { csrfToken })
      expect(attempt.status, `attempt ${i + 1} with a ${email.length}-character email`).toBe(401)
      expect(attempt.error).toBe('The email address or password is incorrect, or the application password was revoked.')
    }
  }
  // A sign-in body that does not say its length is not read at all.
  const chunked = await client.request('POST', '/api/auth/callback/credentials', {
    headers: { 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: undefined,
  })
  expect(chunked.status).toBe(411)

  // HTTP Basic: a header too long to hold credentials is a 401 at once.
  const route = '/places/v1/attachment-exif-gps/1'
  const appPassword = await createAppPassword(server, other.email, `abuse-${run}`)
  for (const value of [
    `Basic ${'QUFB'.repeat(3000)}`,
    basic(other.email, `${appPassword}${'x'.repeat(1025)}`),
    basic(`${'c'.repeat(255)}@e2e.test`, appPassword),
  ]) {
    const response = await client.request('GET', route, { headers: { Authorization: value } })
    expect(response.status, value.slice(0, 40)).toBe(401)
    expect(JSON.parse(response.text).code).toBe('rest_invalid_credentials')
  }

  expect((await client.request('GET', '/healthz')).status).toBe(200)
  const signedIn = await at(11).signIn(owner.email, owner.password)
  expect(signedIn.ok, `the owner signs in afterwards: ${signedIn.url}`).toBe(true)
})

test('sign-ins beyond the bound at once are answered 429 with Retry-After; the others are hashed', async () => {
  test.setTimeout(120_000)
  const clients = Array.from({ length: 12 }, () => at(12))
  const tokens = await Promise.all(clients.map((client) => client.csrfToken()))
  // Ever-new emails, as an attacker sidesteps the per-account count; all at once from one address.
  const attempts = await Promise.all(clients.map((client, i) => client.signIn(`nobody-${i}-${run}@e2e.test`, 'wrong password', { csrfToken: tokens[i] })))
  const refused = attempts.filter((attempt) => attempt.status === 429)
  const hashed = attempts.filter((attempt) => attempt.status === 401)
  expect(refused.length + hashed.length, attempts.map((a) => a.status).join(' ')).toBe(12)
  expect(hashed.length, 'one address holds at most 4 places to hash').toBeLessThanOrEqual(4)
  for (const attempt of refused) expectThrottled(attempt, /^Too many sign-ins at once\. Try again in \d+ seconds?\.$/, 'a refused attempt')
  // Refused at once, not after waiting for the hashes.
  expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(Math.min(...hashed.map((a) => a.ms)))
  // Another address is not held by it.
  expect((await at(22).signIn(other.email, other.password)).ok).toBe(true)
})

test('a client naming other addresses in X-Forwarded-For is still one client, with one budget of failures', async () => {
  test.setTimeout(180_000)
  const client = at(13)
  // The owner of `other` signed in from this address before: their browser has a device cookie for the account.
  const ownersBrowser = at(13)
  expect((await ownersBrowser.signIn(other.email, other.password)).ok).toBe(true)
  const csrfToken = await client.csrfToken()
  let spoofed = 0
  const spoof = () => ({ 'X-Forwarded-For': `198.51.100.${(++spoofed % 250) + 1}` })
  // Failures, each for a new email and from a "new address", two at a time until one is refused, then one at a time
  // until refused again: 30 (the client's budget), and one more for every 10 s the run has taken (the budget refills).
  // The refusal waited for is one answered with no other attempt of this client in flight: a sibling answered after
  // a refusal may spend a failure refilled in between, and the refusal's Retry-After is then too short.
  const start = Date.now()
  let failures = 0
  let refused: Attempt | undefined
  let atOnce = 2
  while (!refused && failures < 60) {
    const attempts = await Promise.all(
      Array.from({ length: atOnce }, () => client.signIn(`nobody-${++spoofed}-${run}@e2e.test`, 'wrong', { csrfToken, headers: spoof() })),
    )
    for (const attempt of attempts) if (attempt.status !== 429) expect(attempt.status, attempt.text.slice(0, 200)).toBe(401)
    failures += attempts.filter((attempt) => attempt.status === 401).length
    if (attempts.some((attempt) => attempt.status === 429)) {
      if (atOnce === 1) refused = attempts[0]
      atOnce = 1
    }
  }
  expect(refused, `refused after ${failures} failures`).toBeTruthy()
  expect(failures).toBeGreaterThanOrEqual(30)
  expect(failures).toBeLessThanOrEqual(30 + Math.ceil((Date.now() - start) / 10_000) + 1)
  const retryAfter = expectThrottled(refused!, TOO_MANY_FAILURES, 'the attempt past the budget')
  expect(retryAfter).toBeLessThanOrEqual(10)
  // Spent: every further attempt from this address waits, whatever it claims, even with the right password (when
  // the budget is not about to refill before the next request arrives).
  if (retryAfter >= 2) {
    expectThrottled(await client.signIn(other.email, other.password, { csrfToken, headers: spoof() }), TOO_MANY_FAILURES, 'the right password')
    expectThrottled(
      await client.signIn(other.email, other.password, { csrfToken, headers: { 'X-Forwarded-For': '127.0.0.1' } }),
      TOO_MANY_FAILURES,
      'claiming to be 127.0.0.1',
    )
    // A stranger who spent the address's budget does not lock out the owner's browser at the same address.
    const owners = await ownersBrowser.signIn(other.email, other.password)
    expect(owners.ok, `the owner's browser at the spent address: ${owners.status} ${owners.url}`).toBe(true)
  }
  // Another address signs in meanwhile; this one gets one more attempt once Retry-After has passed.
  expect((await at(23).signIn(other.email, other.password)).ok).toBe(true)
  await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000))
  const later = await client.signIn(other.email, other.password, { csrfToken })
  expect(later.ok, `after Retry-After: ${later.status} ${later.url}`).toBe(true)
})

test("strangers who lock an account out do not lock out its owner's browser", async () => {
  test.setTimeout(120_000)
  const email = `abuse-locked-${run}@e2e.test`
  const password = `abuse-locked-password-${run}`
  await createUser(server, email, password, 'author')

  // The owner's browser signs in: a device cookie, set by cookies().set() inside next-auth's route handler.
  const browser = at(15)
  const first = await browser.signIn(email, password)
  expect(first.ok, first.url).toBe(true)
  const setCookie = ([] as string[]).concat(first.headers['set-cookie'] ?? []).find((line) => line.startsWith('places-device='))
  expect(setCookie, 'the device cookie').toBeTruthy()
  expect(setCookie).toMatch(/; HttpOnly/i)
  expect(setCookie).toMatch(/; SameSite=Lax/i)
  expect(setCookie).toMatch(/; Path=\/api\/auth/i)
  expect(setCookie, 'the email is not in it').not.toContain(encodeURIComponent(email).slice(0, 12))

  // Strangers, from two addresses, guess until the account is held for 8 s or more: after three failures each one
  // doubles the wait (2 s, 4 s, 8 s), and attempts during a wait are refused without counting.
  const strangers = [at(16), at(17)]
  for (let i = 0; ; i++) {
    expect(i, 'strangers get the account held').toBeLessThan(12)
    const attempt = await strangers[i % 2]!.signIn(email, `wrong-${i}`)
    if (attempt.status === 401) continue
    const wait = expectThrottled(attempt, TOO_MANY_FAILURES, `stranger's attempt ${i + 1}`)
    if (wait >= 7) break
    await new Promise((resolve) => setTimeout(resolve, wait * 1000))
  }
  // The right password from a browser without the cookie is held too, and so is one with a forged cookie.
  expectThrottled(await at(18).signIn(email, password), TOO_MANY_FAILURES, 'the right password, no device cookie')
  const forged = at(18)
  forged.cookies.set(
    'places-device',
    browser.cookies.get('places-device')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
  )
  expectThrottled(await forged.signIn(email, password), TOO_MANY_FAILURES, 'a forged device cookie')
  // The owner's browser is not: a typo of its own, then the right password, at once.
  const typo = await browser.signIn(email, 'a typo')
  expect(typo.status).toBe(401)
  const owners = await browser.signIn(email, password)
  expect(owners.ok, `the owner's browser: ${owners.status} ${owners.url}`).toBe(true)
  const session = JSON.parse((await browser.request('GET', '/api/auth/session')).text) as { user?: { email?: string } }
  expect(session.user?.email).toBe(email)
  // The strangers are still held.
  expectThrottled(await strangers[0]!.signIn(email, password), TOO_MANY_FAILURES, 'a stranger, afterwards')
})
