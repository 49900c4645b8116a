import assert from 'node:assert/strict'
import { test } from 'node:test'
import { effectiveStatus, FAR_FUTURE_MS, isFarFuture } from './schedule'

const now = new Date('2026-06-01T12:00:00Z')
const later = new Date('2026-06-01T12:00:01Z')
const earlier = new Date('2026-06-01T11:59:59Z')

test('publish with a date after now is scheduled; at or before now it is published', () => {
  assert.equal(effectiveStatus('publish', later, now), 'future')
  assert.equal(effectiveStatus('publish', now, now), 'publish')
  assert.equal(effectiveStatus('publish', earlier, now), 'publish')
})

test('future with a date not after now is published; after now it stays scheduled', () => {
  assert.equal(effectiveStatus('future', now, now), 'publish')
  assert.equal(effectiveStatus('future', earlier, now), 'publish')
  assert.equal(effectiveStatus('future', later, now), 'future')
})

test('other statuses keep whatever the date', () => {
  for (const status of ['draft', 'pending', 'private', 'trash']) {
    assert.equal(effectiveStatus(status, later, now), status)
    assert.equal(effectiveStatus(status, earlier, now), status)
  }
})

test('isFarFuture: more than a year ahead', () => {
  assert.equal(isFarFuture(new Date(now.getTime() + FAR_FUTURE_MS), now), false)
  assert.equal(isFarFuture(new Date(now.getTime() + FAR_FUTURE_MS + 1), now), true)
  assert.equal(isFarFuture(new Date('2999-01-01T00:00:00Z'), now), true)
  assert.equal(isFarFuture(earlier, now), false)
})
