import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CLIENT_SIGN_IN_BURST, chargeClientSignIn, clientSignInWait, refundClientSignIn } from './client-limit'

test('an address may fail 30 times in a row, then once every 10 seconds', () => {
  const client = '192.0.2.10'
  let now = 5_000_000
  assert.equal(CLIENT_SIGN_IN_BURST, 30)
  for (let i = 0; i < CLIENT_SIGN_IN_BURST; i++) {
    assert.equal(clientSignInWait(client, now), 0, `attempt ${i + 1}`)
    chargeClientSignIn(client, now)
  }
  assert.equal(clientSignInWait(client, now), 10_000)
  assert.equal(clientSignInWait('192.0.2.11', now), 0, 'another address is not held')
  now += 4_000
  assert.equal(clientSignInWait(client, now), 6_000)
  now += 6_000
  assert.equal(clientSignInWait(client, now), 0, 'one more after 10 s')
  chargeClientSignIn(client, now)
  assert.equal(clientSignInWait(client, now), 10_000)
  now += 5 * 60_000
  for (let i = 0; i < CLIENT_SIGN_IN_BURST; i++) chargeClientSignIn(client, now)
  assert.equal(clientSignInWait(client, now), 10_000, 'refilled to 30, never more')
})

test('a success gives its charge back', () => {
  const client = '192.0.2.20'
  const now = 9_000_000
  for (let i = 0; i < 100; i++) {
    chargeClientSignIn(client, now)
    refundClientSignIn(client, now)
  }
  assert.equal(clientSignInWait(client, now), 0)
})
