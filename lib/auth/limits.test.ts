import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeBasicCredentials, isWithinCredentialLimits } from './limits'

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')

test('an email over 254 characters or a password over 1,024 is never looked at', () => {
  const email = `${'a'.repeat(241)}@example.test` // 254
  assert.equal(isWithinCredentialLimits(email, 'p'.repeat(1024)), true)
  assert.equal(isWithinCredentialLimits(`a${email}`, 'p'), false)
  assert.equal(isWithinCredentialLimits(email, 'p'.repeat(1025)), false)
})

test('HTTP Basic: credentials within the limits decode; anything longer is refused before decoding', () => {
  assert.deepEqual(decodeBasicCredentials(b64('Editor@Example.test:abcd efgh')), { email: 'editor@example.test', secret: 'abcd efgh' })
  const widest = decodeBasicCredentials(b64(`${'é'.repeat(254)}:${'ü'.repeat(1024)}`))
  assert.deepEqual(widest, { email: 'é'.repeat(254), secret: 'ü'.repeat(1024) }, 'two-byte characters at the limits')
  assert.equal(decodeBasicCredentials(b64(`e@example.test:${'x'.repeat(1025)}`)), null, 'a password over the limit')
  assert.equal(decodeBasicCredentials(b64(`${'e'.repeat(255)}:secret`)), null, 'an email over the limit')
  assert.equal(decodeBasicCredentials('QUFB'.repeat(2000)), null, 'too long to be credentials')
  // Refused by its length alone: a megabyte of base64 takes no decoding (well under a millisecond).
  const megabyte = 'A'.repeat(1024 * 1024)
  const start = performance.now()
  for (let i = 0; i < 1000; i++) assert.equal(decodeBasicCredentials(megabyte), null)
  assert.ok(performance.now() - start < 200, `${performance.now() - start} ms for 1,000 megabyte headers`)
  for (const bad of ['!!!', b64('no-colon'), b64(':secret'), '']) assert.equal(decodeBasicCredentials(bad), null, bad)
})
