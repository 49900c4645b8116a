import assert from 'node:assert/strict'
import { test } from 'node:test'
import { RateLimit } from './rate-limit'

test('a key spends its budget, then waits for one use to refill; other keys are apart', () => {
  const limit = new RateLimit(60, 60_000)
  const start = 1_000_000
  for (let i = 0; i < 60; i++) assert.equal(limit.take('a', start), 0, `use ${i + 1}`)
  assert.equal(limit.take('a', start), 1000, 'the 61st waits a second, the time one use takes to refill')
  assert.equal(limit.take('a', start + 400), 600, 'a refused use spends nothing')
  assert.equal(limit.take('b', start), 0, 'another key has its own budget')
  assert.equal(limit.take('a', start + 1000), 0)
  assert.equal(limit.take('a', start + 1000), 1000)
  // A minute later the whole budget is back, and no more than it.
  for (let i = 0; i < 60; i++) assert.equal(limit.take('a', start + 120_000), 0)
  assert.ok(limit.take('a', start + 120_000) > 0)
})
