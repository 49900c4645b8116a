import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { featuresOfCollection, importPlaces } from '../../lib/places/import'
import { readPlaceIndex } from '../../lib/places/map-index/read'
import { createUser } from '../../lib/users'
import { migratedDatabaseOfThisRun } from '../support/databases'
import { waitFor } from '../support/wait'

// Whole reads of a map's index after a write the change log cannot tell take turns across the instances on one
// PostgreSQL (lib/db/dialect.ts, StreamOptions): a read waits while another holds the turn, and at most as long as it
// is told, then reads anyway. On SQLite, one machine's, they do not wait.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
const kind = migratedDatabaseOfThisRun(import.meta.url)
const query = { postType: 'post', categoryId: null }
// The advisory lock of the turns (lib/db/postgresql.ts).
const TURN_LOCK_KEY = 727_003

test('places to read', async () => {
  await createUser({ email: 'turns@example.org', password: 'long enough', role: 'editor' })
  const features = [1, 2, 3].map((n) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [n, 45] }, properties: { title: `Place ${n}` } }))
  await importPlaces(featuresOfCollection({ type: 'FeatureCollection', features }), { defaultAuthor: 'turns@example.org' })
  assert.equal((await readPlaceIndex(query, { turnWaitMs: 1_000 })).size, 3, 'on SQLite too, where nothing waits')
})

/** Another instance's read holding the turn: a transaction of its own with the lock, until `release`. */
async function holdTurn(): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  await client.query('BEGIN')
  await client.query('SELECT pg_advisory_xact_lock($1)', [TURN_LOCK_KEY])
  return {
    release: async () => {
      await client.query('COMMIT')
      await client.end()
    },
  }
}

/** Whether a read of the index is waiting for the turn's lock, as PostgreSQL sees it. */
async function waitingForTurn(): Promise<boolean> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [TURN_LOCK_KEY])
    return rows.length > 0
  } finally {
    await client.end()
  }
}

test('a read that takes turns waits for the turn another holds, then reads', { skip: kind !== 'postgresql' && 'PostgreSQL only' }, async () => {
  const held = await holdTurn()
  let done = false
  const read = readPlaceIndex(query, { turnWaitMs: 30_000 }).finally(() => (done = true))
  try {
    await waitFor('the read to wait for its turn', async () => ((await waitingForTurn()) ? true : undefined))
    await new Promise((resolve) => setTimeout(resolve, 300))
    assert.equal(done, false, 'not read while the turn is held')
    assert.equal((await readPlaceIndex(query)).size, 3, 'a read that does not take turns does not wait')
  } finally {
    await held.release()
  }
  assert.equal((await read).size, 3)
})

test('a read waits for its turn at most as long as it is told, then reads anyway', { skip: kind !== 'postgresql' && 'PostgreSQL only' }, async () => {
  const held = await holdTurn()
  try {
    const started = Date.now()
    assert.equal((await readPlaceIndex(query, { turnWaitMs: 500 })).size, 3)
    const waited = Date.now() - started
    assert.ok(waited >= 450, `waited ${waited} ms`)
  } finally {
    await held.release()
  }
})
