import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { disconnectDb } from '../../lib/db'
import { checkHealth, markReady } from '../../lib/health'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// GET /healthz's answer (lib/health.ts) on a real database and folder: "starting" until the server says it is ready, then
// "ok"; a store that does not answer is in test/media/s3-storage.test.ts.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
const uploads = mkdtempSync(path.join(tmpdir(), 'places-health-'))

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  process.env.UPLOADS_DIR = uploads
  await migrate()
})

after(async () => {
  await disconnectDb()
  await database.drop()
  rmSync(uploads, { recursive: true, force: true })
})

test('starting until the server is ready, then ok; the database answers throughout', async () => {
  const media = { storage: 'disk', ok: true }
  assert.deepEqual(await checkHealth(), { status: 'starting', database: { dialect: kind, ok: true }, media })
  markReady()
  assert.deepEqual(await checkHealth(), { status: 'ok', database: { dialect: kind, ok: true }, media })
})
