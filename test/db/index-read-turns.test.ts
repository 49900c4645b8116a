import assert from 'node:assert/strict'
import { test } from 'node:test'
import pg from 'pg'
import { featuresOfCollection, importPlaces } from '../../lib/places/import'
import { getDb, readDataVersion } from '../../lib/db'
import { PlaceIndexes } from '../../lib/places/map-index/cache'
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
  const features = [1, 2, 3].map((n) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [n, 45] },
    properties: { title: `Place ${n}`, categories: ['Walks'] },
  }))
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

/** How many reads of an index wait for the turn's lock, as PostgreSQL sees it. */
async function waitingForTurn(): Promise<number> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await client.connect()
  try {
    // Of this test's database: other runs may use the same server.
    const { rows } = await client.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [TURN_LOCK_KEY],
    )
    return rows.length
  } finally {
    await client.end()
  }
}

// The turns are PostgreSQL's: on SQLite these are not run (nor counted as skipped).
if (kind === 'postgresql') {
  test('a read that takes turns waits for the turn another holds, then reads', { timeout: 60_000 }, async () => {
    const held = await holdTurn()
    let done = false
    const read = readPlaceIndex(query, { turnWaitMs: 30_000 }).finally(() => (done = true))
    try {
      await waitFor('the read to wait for its turn', async () => ((await waitingForTurn()) > 0 ? true : undefined))
      await new Promise((resolve) => setTimeout(resolve, 300))
      assert.equal(done, false, 'not read while the turn is held')
      assert.equal((await readPlaceIndex(query)).size, 3, 'a read that does not take turns does not wait')
    } finally {
      await held.release()
    }
    assert.equal((await read).size, 3)
  })

  test('a read waits for its turn at most as long as it is told, then reads anyway', { timeout: 60_000 }, async () => {
    const held = await holdTurn()
    try {
      const started = Date.now()
      assert.equal((await readPlaceIndex(query, { turnWaitMs: 500 })).size, 3)
      const waited = Date.now() - started
      assert.ok(waited >= 450 && waited < 10_000, `waited ${waited} ms`)
    } finally {
      await held.release()
    }
  })

  test(
    'within a process the indexes a category move makes stale are read again one at a time: one connection waits for the turn',
    { timeout: 60_000 },
    async () => {
      const db = getDb()
      const walks = await db.category.findFirstOrThrow({ where: { name: 'Walks' }, select: { id: true } })
      const queries = [query, { postType: 'post', categoryId: walks.id }]
      const indexes = new PlaceIndexes()
      for (const q of queries) assert.equal((await indexes.get(q, await readDataVersion())).size, 3)
      // A category moved: the change log cannot tell which places each index holds now.
      const parent = await db.category.create({ data: { name: 'Outdoors', slug: 'outdoors' } })
      await db.category.update({ where: { id: walks.id }, data: { parentId: parent.id } })
      const version = await readDataVersion()
      const held = await holdTurn()
      const reads = queries.map((q) => indexes.get(q, version))
      try {
        await waitFor('a read to wait for its turn', async () => ((await waitingForTurn()) > 0 ? true : undefined))
        await new Promise((resolve) => setTimeout(resolve, 300))
        assert.equal(await waitingForTurn(), 1, 'the other waits in the process, holding no connection')
      } finally {
        await held.release()
      }
      assert.deepEqual(
        (await Promise.all(reads)).map((index) => index.size),
        [3, 3],
      )
    },
  )
}
