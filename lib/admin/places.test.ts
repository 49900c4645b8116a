import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ApiError } from '../http/errors'
import { findPlaces, suggestAddress } from './places'

const contributor = { id: 1, role: 'contributor' }

test('those who may write posts get suggestions and places', async () => {
  assert.deepEqual(await suggestAddress(contributor, { latitude: 43.7678, longitude: 11.2553 }), {
    label: 'Florence, Tuscany, Italy',
    latitude: 43.77925,
    longitude: 11.24626,
    distanceKm: 1.47,
  })
  assert.equal(await suggestAddress(contributor, { latitude: 0, longitude: -30 }), null)
  const places = await findPlaces(contributor, { query: 'florence', limit: 3 })
  assert.equal(places.length, 3)
  assert.equal(places[0]!.label, 'Florence, Tuscany, Italy')
})

test('subscribers, unknown roles and bad input are refused', async () => {
  for (const actor of [
    { id: 2, role: 'subscriber' },
    { id: 3, role: 'root' },
  ]) {
    await assert.rejects(suggestAddress(actor, { latitude: 1, longitude: 1 }), (error: unknown) => error instanceof ApiError && error.status === 403)
    await assert.rejects(findPlaces(actor, { query: 'a', limit: 3 }), (error: unknown) => error instanceof ApiError && error.status === 403)
  }
  await assert.rejects(suggestAddress(contributor, { latitude: 91, longitude: 0 }), (error: unknown) => error instanceof ApiError && error.status === 400)
  await assert.rejects(findPlaces(contributor, { query: 'x'.repeat(101), limit: 3 }), (error: unknown) => error instanceof ApiError && error.status === 400)
  await assert.rejects(findPlaces(contributor, { query: 'x', limit: 1000 }), (error: unknown) => error instanceof ApiError && error.status === 400)
})
