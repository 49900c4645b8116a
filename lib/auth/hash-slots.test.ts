import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ApiError } from '../http/errors'
import { getHashSlots } from './hash-slots'
import { hashPassword, verifyPassword } from './passwords'

// Real scrypt hashes through the process's one set of slots (2 running, 16 waiting, 4 per client address).

async function outcome(attempt: Promise<boolean>): Promise<'hashed' | number> {
  try {
    await attempt
    return 'hashed'
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) return Number(error.data.retryAfter)
    throw error
  }
}

test('at most 2 hashes run at once and 16 wait; more sign-ins at once are refused at once with a Retry-After', async () => {
  const stored = await hashPassword('a password')
  let mostRunning = 0
  const watch = setInterval(() => (mostRunning = Math.max(mostRunning, getHashSlots().load().running)), 1)
  const start = performance.now()
  const settled: number[] = []
  const attempts = Array.from({ length: 40 }, (_, i) => outcome(verifyPassword('wrong', stored, { client: `192.0.2.${i}` })).finally(() => settled.push(i)))
  await Promise.all(attempts.slice(18))
  const refusedMs = performance.now() - start
  const results = await Promise.all(attempts)
  clearInterval(watch)
  assert.deepEqual(
    settled.slice(0, 22).sort((a, b) => a - b),
    Array.from({ length: 22 }, (_, i) => 18 + i),
    'the 22 beyond the bound are answered before any hash is done',
  )
  assert.deepEqual(results.slice(0, 18), Array(18).fill('hashed'))
  for (const retryAfter of results.slice(18)) assert.ok(typeof retryAfter === 'number' && retryAfter >= 1, `Retry-After ${retryAfter}`)
  assert.equal(mostRunning, 2)
  assert.deepEqual(getHashSlots().load(), { running: 0, waiting: 0, clients: 0 })
  console.log(`18 hashes in ${Math.round(performance.now() - start)} ms; 22 refused after ${Math.round(refusedMs)} ms`)
})

test('one client address holds at most 4 places; others still get theirs', async () => {
  const stored = await hashPassword('a password')
  const flood = Array.from({ length: 10 }, () => outcome(verifyPassword('wrong', stored, { client: '198.51.100.1' })))
  const others = [
    outcome(verifyPassword('a password', stored, { client: '198.51.100.2' })),
    outcome(verifyPassword('wrong', stored, { client: '198.51.100.3' })),
  ]
  const results = await Promise.all(flood)
  assert.equal(results.filter((result) => result === 'hashed').length, 4)
  assert.deepEqual(await Promise.all(others), ['hashed', 'hashed'])
})

test('an owner with a device cookie goes before the waiting strangers; setting a password always waits its turn', async () => {
  const stored = await hashPassword('a password')
  const finished: string[] = []
  const track = (name: string, attempt: Promise<unknown>) =>
    attempt.then(
      () => finished.push(name),
      () => finished.push(`${name} refused`),
    )
  const strangers = Array.from({ length: 18 }, (_, i) => track(`stranger ${i}`, verifyPassword('wrong', stored, { client: `203.0.113.${i}` })))
  const owner = track('owner', verifyPassword('a password', stored, { client: '203.0.113.200', priority: true }))
  const operators = Array.from({ length: 5 }, (_, i) => track(`operator ${i}`, hashPassword(`new password ${i}`)))
  await Promise.all([...strangers, owner, ...operators])
  // Behind the two strangers running when the owner came, and perhaps one that started beside the owner.
  assert.ok(finished.indexOf('owner') <= 3, `the owner finished ${finished.indexOf('owner') + 1}th: ${finished.join(', ')}`)
  assert.equal(finished.filter((name) => name.startsWith('operator') && !name.endsWith('refused')).length, 5)
})
