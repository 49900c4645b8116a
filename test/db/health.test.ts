import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newestBuild, ownBuildId, recordBuild } from '../../lib/builds'
import { getDb } from '../../lib/db'
import { checkHealth, markReady } from '../../lib/health'
import { migratedDatabaseOfThisRun } from '../support/databases'

// GET /healthz's answer (lib/health.ts) on a real database: "starting" until the server says it is ready, then
// "ok"; a server of an older build than the newest started; a store that does not answer is in
// test/media/s3-storage.test.ts.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
const kind = migratedDatabaseOfThisRun(import.meta.url)

test('starting until the server is ready, then ok; the database answers throughout', async () => {
  const [media, build] = [
    { storage: 'disk', ok: true },
    { id: ownBuildId(), newest: true },
  ]
  assert.ok(build.id, 'the tests run on the production build')
  assert.deepEqual(await checkHealth(), { status: 'starting', database: { dialect: kind, ok: true }, media, build })
  markReady()
  assert.deepEqual(await checkHealth(), { status: 'ok', database: { dialect: kind, ok: true }, media, build })
})

test('a server whose build is not the newest started says so, in /healthz and once in its log', async (t) => {
  const warnings = t.mock.method(console, 'warn', () => {})
  await recordBuild(ownBuildId()!)
  assert.deepEqual((await checkHealth()).build, { id: ownBuildId(), newest: true })
  await recordBuild('another-build')
  assert.deepEqual((await checkHealth()).build, { id: ownBuildId(), newest: false }, 'still serving: status is not changed')
  assert.equal((await checkHealth()).status, 'ok')
  assert.equal(warnings.mock.callCount(), 1)
  assert.match(String(warnings.mock.calls[0]?.arguments[0]), /with build another-build; this one runs .* run one build on every machine/)
  // Started again (a rolling deploy going back), it is the newest.
  await recordBuild(ownBuildId()!)
  assert.deepEqual((await checkHealth()).build, { id: ownBuildId(), newest: true })
  // Servers of one build starting at once each record their start.
  await Promise.all([recordBuild(ownBuildId()!), recordBuild(ownBuildId()!), recordBuild(ownBuildId()!)])
  assert.equal((await newestBuild())?.buildId, ownBuildId())
  // The last 20 starts are kept, whatever the number of builds.
  for (let i = 0; i < 25; i++) await recordBuild(`build-${i}`)
  assert.equal(await getDb().serverBuild.count(), 20)
  assert.equal((await newestBuild())?.buildId, 'build-24')
})
