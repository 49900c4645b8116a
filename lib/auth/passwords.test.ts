import assert from 'node:assert/strict'
import { test } from 'node:test'
import { hashPassword, verifyPassword } from './passwords'

test('a password verifies against its hash and nothing else does', async () => {
  const hash = await hashPassword('correct horse battery staple')
  assert.match(hash, /^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/)
  assert.equal(await verifyPassword('correct horse battery staple', hash), true)
  assert.equal(await verifyPassword('correct horse battery stapl', hash), false)
  // A changed character in the middle of the hash (the last one may only carry padding bits of base64).
  const tampered = `${hash.slice(0, -10)}${hash.at(-10) === 'A' ? 'B' : 'A'}${hash.slice(-9)}`
  assert.equal(await verifyPassword('correct horse battery staple', tampered), false)
  assert.equal(await verifyPassword('x', 'bcrypt$whatever'), false)
  assert.notEqual(await hashPassword('same'), await hashPassword('same'), 'salted')
})
