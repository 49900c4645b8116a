import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CLIENT_SIGN_IN_BURST, chargeClientSignIn, clientSignInWait, refundClientSignIn, sweepClientBudgets } from '../../lib/auth/client-limit'
import { accountKey, deviceKey, forgetFailedSignIn, recordFailedSignIn, recordSuccessfulSignIn, signInWait, sweepSignInFailures } from '../../lib/auth/throttle'
import { getDb } from '../../lib/db'
import { migratedDatabaseOfThisRun } from '../support/databases'

// The sign-in limits (lib/auth/throttle.ts, client-limit.ts) as the database keeps them for every instance: each
// check and count is one statement, so attempts at once cannot pass one check together. Two servers counting one
// account's failures together, and a restart forgiving none of them, are in test/server/shared-limits.test.ts.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
migratedDatabaseOfThisRun(import.meta.url)

/** Counts a failure that must be let through, and returns it. */
async function fail(key: string, now: number) {
  const counted = await recordFailedSignIn(key, now)
  assert.ok('failure' in counted, `let through, not held for ${'wait' in counted ? counted.wait : 0} ms`)
  return counted.failure
}

test('a failure is kept under a 43-character hash of the lower-cased email, never the email', async () => {
  const huge = `${'a'.repeat(5 * 1024 * 1024)}@example.test`
  await fail(accountKey(huge), Date.now())
  await fail(accountKey('Someone@Example.TEST'), Date.now())
  const keys = (await getDb().signInFailure.findMany({ select: { key: true } })).map(({ key }) => key)
  assert.equal(keys.length, 2)
  for (const key of keys) assert.match(key, /^[\w-]{43}$/)
  assert.equal(accountKey('Someone@Example.TEST'), accountKey('someone@example.test'))
  await recordSuccessfulSignIn(accountKey(huge))
  await recordSuccessfulSignIn(accountKey('someone@example.test'))
  assert.equal(await getDb().signInFailure.count(), 0, 'a success removes the count')
})

test('after three failures each attempt waits twice as long as the last, up to 15 minutes; a success clears it', async () => {
  const key = accountKey('doubling@example.test')
  let now = 1_000_000_000_000
  for (let i = 0; i < 3; i++) await fail(key, now)
  assert.equal(await signInWait(key, now), 0, 'three failures are free')
  const waits = []
  for (let i = 0; i < 12; i++) {
    await fail(key, now)
    const wait = await signInWait(key, now)
    waits.push(wait)
    assert.deepEqual(await recordFailedSignIn(key, now + wait - 1), { wait: 1 }, 'held until the wait is over, and not counted')
    now += wait
  }
  assert.deepEqual(waits.slice(0, 5), [2_000, 4_000, 8_000, 16_000, 32_000])
  assert.deepEqual(waits.slice(-4), [512_000, 900_000, 900_000, 900_000])
  await recordSuccessfulSignIn(key)
  assert.equal(await signInWait(key, now), 0)
})

test('failures an hour old are forgotten, and swept', async () => {
  const key = accountKey('forgotten@example.test')
  const now = 1_100_000_000_000
  for (let i = 0; i < 6; i++) await fail(key, now + i * 60_000) // each after the last one's wait
  assert.ok((await signInWait(key, now + 5 * 60_000)) > 0)
  const hourLater = now + 5 * 60_000 + 3_600_000
  assert.equal(await signInWait(key, hourLater), 0)
  assert.equal(await sweepSignInFailures(hourLater - 1), 0, 'not before the hour')
  assert.equal(await sweepSignInFailures(hourLater), 1)
  await fail(key, hourLater)
  assert.equal((await getDb().signInFailure.findUniqueOrThrow({ where: { key } })).failures, 1, 'counted from one again')
  await recordSuccessfulSignIn(key)
})

test('attempts at once: the three free failures and one more are let through, the others held and not counted', async () => {
  const key = accountKey('at-once@example.test')
  const now = 1_200_000_000_000
  const results = await Promise.all(Array.from({ length: 12 }, () => recordFailedSignIn(key, now)))
  const through = results.filter((result) => 'failure' in result)
  assert.equal(through.length, 4)
  assert.deepEqual(
    results.filter((result) => 'wait' in result).map((result) => 'wait' in result && result.wait),
    Array(8).fill(2_000),
  )
  assert.equal((await getDb().signInFailure.findUniqueOrThrow({ where: { key } })).failures, 4)
  await recordSuccessfulSignIn(key)
})

test('a failure never tried is taken back, unless another was counted since; a count it began goes with it', async () => {
  const key = accountKey('taken-back@example.test')
  const now = 1_300_000_000_000
  await forgetFailedSignIn(await fail(key, now))
  assert.equal(await getDb().signInFailure.count({ where: { key } }), 0, 'no row left by an attempt never tried')
  for (let i = 0; i < 3; i++) await fail(key, now + i)
  const fourth = await fail(key, now + 10)
  assert.equal(await signInWait(key, now + 10), 2_000)
  await forgetFailedSignIn(fourth)
  assert.equal(await signInWait(key, now + 10), 0, 'as before it')
  const row = await getDb().signInFailure.findUniqueOrThrow({ where: { key } })
  assert.deepEqual([row.failures, Number(row.at)], [3, now + 2])

  const again = await fail(key, now + 20)
  await fail(key, now + 2_020) // another, once its wait is over
  await forgetFailedSignIn(again)
  assert.equal((await getDb().signInFailure.findUniqueOrThrow({ where: { key } })).failures, 5, 'not taken back: another came since')
  await recordSuccessfulSignIn(key)
})

test("a device's failures are counted apart from the account's strangers", async () => {
  const now = 1_400_000_000_000
  const account = accountKey('owner@example.test')
  const device = deviceKey(account, 'device-1')
  for (let i = 0; i < 4; i++) await fail(account, now)
  assert.ok((await signInWait(account, now)) > 0, 'strangers wait')
  assert.equal(await signInWait(device, now), 0, "the owner's device does not")
  for (let i = 0; i < 4; i++) await fail(device, now)
  assert.ok((await signInWait(device, now)) > 0, 'a device that keeps failing waits too')
  assert.equal(await signInWait(deviceKey(account, 'device-2'), now), 0, 'another device of the owner does not')
})

test('an address may fail 30 times in a row, then once every 10 seconds; a whole budget is swept', async () => {
  const client = '192.0.2.10'
  let now = 1_500_000_000_000
  assert.equal(CLIENT_SIGN_IN_BURST, 30)
  for (let i = 0; i < CLIENT_SIGN_IN_BURST; i++) assert.equal(await chargeClientSignIn(client, now), 0, `attempt ${i + 1}`)
  assert.equal(await chargeClientSignIn(client, now), 10_000, 'held, and nothing spent')
  assert.equal(await clientSignInWait(client, now), 10_000)
  assert.equal(await clientSignInWait('192.0.2.11', now), 0, 'another address is not held')
  now += 4_000
  assert.equal(await chargeClientSignIn(client, now), 6_000)
  now += 6_000
  assert.equal(await chargeClientSignIn(client, now), 0, 'one more after 10 s')
  assert.equal(await clientSignInWait(client, now), 10_000)
  now += 5 * 60_000
  assert.equal(await sweepClientBudgets(now - 1), 0, 'not yet whole')
  assert.equal(await sweepClientBudgets(now), 1, 'whole again: no row needed')
  for (let i = 0; i < CLIENT_SIGN_IN_BURST; i++) assert.equal(await chargeClientSignIn(client, now), 0)
  assert.equal(await clientSignInWait(client, now), 10_000, 'refilled to 30, never more')
})

test('a success gives its charge back; attempts at once spend the budget once each', async () => {
  const now = 1_600_000_000_000
  for (let i = 0; i < 100; i++) {
    assert.equal(await chargeClientSignIn('192.0.2.20', now), 0)
    await refundClientSignIn('192.0.2.20')
  }
  assert.equal(await clientSignInWait('192.0.2.20', now), 0)

  const waits = await Promise.all(Array.from({ length: 40 }, () => chargeClientSignIn('192.0.2.21', now)))
  assert.equal(waits.filter((wait) => wait === 0).length, CLIENT_SIGN_IN_BURST)
  assert.deepEqual(
    waits.filter((wait) => wait > 0),
    Array(10).fill(10_000),
  )
})
