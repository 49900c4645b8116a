import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { disconnectDb } from '../../lib/db'
import { checkHealth, markReady } from '../../lib/health'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// GET /healthz's answer (lib/health.ts) on a real database: "starting" until the server says it is ready, then "ok".

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

test('starting until the server is ready, then ok; the database answers throughout', async () => {
  assert.deepEqual(await checkHealth(), { status: 'starting', database: { dialect: kind, ok: true } })
  markReady()
  assert.deepEqual(await checkHealth(), { status: 'ok', database: { dialect: kind, ok: true } })
})
