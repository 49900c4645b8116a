import assert from 'node:assert/strict'
import { test } from 'node:test'
import { accountKey, deviceKey, recordFailedSignIn, recordSuccessfulSignIn, signInWait, throttleRecords } from './throttle'

test('a failure is kept under a 43-character hash of the lower-cased email, never the email', () => {
  const huge = `${'a'.repeat(5 * 1024 * 1024)}@example.test`
  recordFailedSignIn(accountKey(huge))
  recordFailedSignIn(accountKey('Someone@Example.TEST'))
  const { keys } = throttleRecords()
  for (const key of keys) assert.match(key, /^[\w-]{43}$/)
  assert.ok(!keys.some((key) => key.includes('example')), 'no email among the keys')
  assert.equal(accountKey('Someone@Example.TEST'), accountKey('someone@example.test'))
  recordSuccessfulSignIn(accountKey(huge))
  recordSuccessfulSignIn(accountKey('someone@example.test'))
})

test('the counts are bounded: a flood of ever-new emails keeps at most 100,000', () => {
  for (let i = 0; i < 120_000; i++) recordFailedSignIn(accountKey(`flood-${i}@example.test`))
  assert.equal(throttleRecords().size, 100_000)
  // The newest are kept, the oldest went first.
  assert.equal(signInWait(accountKey('flood-119999@example.test')), 0)
  for (let i = 0; i < 3; i++) recordFailedSignIn(accountKey('flood-119999@example.test'))
  assert.ok(signInWait(accountKey('flood-119999@example.test')) > 0)
})

test('after three failures each attempt waits twice as long as the last, up to 15 minutes; a success clears it', () => {
  const key = accountKey('doubling@example.test')
  const now = 1_000_000
  for (let i = 0; i < 3; i++) recordFailedSignIn(key, now)
  assert.equal(signInWait(key, now), 0, 'three failures are free')
  const waits = []
  for (let i = 0; i < 12; i++) {
    recordFailedSignIn(key, now)
    waits.push(signInWait(key, now))
  }
  assert.deepEqual(waits.slice(0, 4), [2_000, 4_000, 8_000, 16_000])
  assert.equal(waits.at(-1), 15 * 60_000)
  recordSuccessfulSignIn(key)
  assert.equal(signInWait(key, now), 0)
})

test("a device's failures are counted apart from the account's strangers", () => {
  const account = accountKey('owner@example.test')
  const device = deviceKey(account, 'device-1')
  for (let i = 0; i < 8; i++) recordFailedSignIn(account)
  assert.ok(signInWait(account) > 0, 'strangers wait')
  assert.equal(signInWait(device), 0, "the owner's device does not")
  for (let i = 0; i < 4; i++) recordFailedSignIn(device)
  assert.ok(signInWait(device) > 0, 'a device that keeps failing waits too')
  assert.equal(signInWait(deviceKey(account, 'device-2')), 0, 'another device of the owner does not')
})
