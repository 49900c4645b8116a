#!/usr/bin/env node
// The server of a Playwright project (scripts/e2e-servers.mts starts one per project): resets the database at
// DATABASE_URL and the uploads at UPLOADS_DIR, loads data through the command line's commands, then runs
// `next start -p PORT` on the build. E2E_DATASET picks the data:
//   api (default)  the hand-written fixture e2e/fixtures/places.geojson and 520 generated posts;
//   ui             the demo places (prisma/demo/places.geojson) and a user of every role (ROLES below);
//   shared         nothing reset nor loaded: a second app instance on the database of a server started before it.
// E2E_PGBOUNCER=1 (PostgreSQL): the server's connections go through Debian's PgBouncer in transaction mode, its
// migrations directly (MIGRATION_DATABASE_URL), as README's Deployment describes; directly, saying so, where
// pgbouncer is not installed outside CI.
// MAP_PMTILES=FILE: the file is written first, the tests' small region (test/support/pmtiles.ts), as an operator would
// download one.
// E2E_MACHINE=1: the server runs as on a machine of its own, sharing only the database and the bucket with the
// others: from a working directory of its own (.test-data/machine-PORT: the build copied, as a deploy ships it, and
// the code linked), with its own TMPDIR and uploads folder.
//
//   DATABASE_URL=file:./.test-data/e2e.db PORT=3101 node --import tsx scripts/e2e-server.mts
//
// It empties the database it is given, so it refuses a PostgreSQL database that is not on this machine.
import { spawn } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { bulkFeatures } from '../e2e/fixtures/bulk.mts'
import { places as placesIn, stopPlaces } from '../test/support/cli.ts'
import { pgBouncerMissing, startPgBouncer } from '../test/support/pgbouncer.ts'
import { testBasemap } from '../test/support/pmtiles.ts'
import { resetDatabase } from './reset-database.mts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

const ADMIN_EMAIL = 'e2e-admin@example.test'
/** The ui dataset's users: `${role}@e2e.test`, password `e2e-${role}-password` (e2e/support/users.ts says the same). */
const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber']
const DEMO = path.join(root, 'prisma', 'demo', 'places.geojson')
const ADMIN_PASSWORD = 'e2e-admin-password-0123456789'
const FIXTURE = path.join(root, 'e2e', 'fixtures', 'places.geojson')

function fail(message: string): never {
  console.error(`e2e-server: ${message}`)
  process.exit(1)
}

const databaseUrl = process.env.DATABASE_URL
const port = process.env.PORT
if (!databaseUrl) fail('DATABASE_URL is required')
if (!port || !/^\d+$/.test(port)) fail('PORT is required (a number)')

const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: port, NEXT_TELEMETRY_DISABLED: '1' }
// Before any command: each reads the settings, and MAP_PMTILES must name a file.
if (process.env.MAP_PMTILES) writeFileSync(process.env.MAP_PMTILES, testBasemap())

/** Runs `places <args>` (bin/cli.ts's `main`, in a process kept for this database: test/support/cli.ts); its stdout. */
async function places(...args: string[]): Promise<string> {
  const run = await placesIn(env, ...args)
  if (run.status !== 0) fail(`places ${args.join(' ')} failed (exit ${run.status}):\n${run.stderr}${run.stdout}`)
  return run.stdout
}

async function importFile(file: string, expected: number): Promise<string[]> {
  const ids = (await places('import', file, '--author', ADMIN_EMAIL)).trim().split('\n').filter(Boolean)
  if (ids.length !== expected) fail(`places import ${file} printed ${ids.length} ids, expected ${expected}`)
  return ids
}

function featureCount(file: string): number {
  return (JSON.parse(readFileSync(file, 'utf8')) as { features: unknown[] }).features.length
}

async function loadApiDataset() {
  // The hand-written fixture first, on an empty database: its categories get ids 1, 2, 3… in order of first appearance.
  await importFile(FIXTURE, featureCount(FIXTURE))
  const scratch = mkdtempSync(path.join(tmpdir(), 'places-e2e-'))
  try {
    const bulk = bulkFeatures()
    const bulkFile = path.join(scratch, 'bulk.geojson')
    writeFileSync(bulkFile, JSON.stringify({ type: 'FeatureCollection', features: bulk }))
    await importFile(bulkFile, bulk.length)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

async function loadUiDataset() {
  for (const role of ROLES)
    await places('user', 'create', '--email', `${role}@e2e.test`, '--password', `e2e-${role}-password`, '--role', role, '--name', `E2E ${role}`)
  await importFile(DEMO, featureCount(DEMO))
}

const dataset = process.env.E2E_DATASET ?? 'api'
if (!['api', 'ui', 'shared'].includes(dataset)) fail('E2E_DATASET must be api, ui or shared')
// `shared`: another app instance on a database that an earlier server of the run reset and loaded.
if (dataset !== 'shared') {
  await resetDatabase(databaseUrl, root).catch((error: Error) => fail(error.message))
  if (process.env.UPLOADS_DIR) rmSync(path.resolve(root, process.env.UPLOADS_DIR), { recursive: true, force: true })
  await places('migrate')
  await places('user', 'create', '--email', ADMIN_EMAIL, '--password', ADMIN_PASSWORD, '--role', 'administrator', '--name', 'E2E Admin')
  if (dataset === 'ui') await loadUiDataset()
  else await loadApiDataset()
  await stopPlaces(databaseUrl)
}
/** A working directory as a machine of its own has (see above), made anew; returns it, its TMPDIR and its uploads. */
function machine(): { cwd: string; tmp: string; uploads: string } {
  const dir = path.join(root, '.test-data', `machine-${port}`)
  rmSync(dir, { recursive: true, force: true })
  const cwd = path.join(dir, 'app')
  const tmp = path.join(dir, 'tmp')
  mkdirSync(tmp, { recursive: true })
  const build = path.join(root, '.next')
  cpSync(build, path.join(cwd, '.next'), { recursive: true, filter: (source) => source !== path.join(build, 'cache') })
  for (const name of ['node_modules', 'prisma', 'public']) symlinkSync(path.join(root, name), path.join(cwd, name))
  for (const name of ['package.json', 'next.config.mjs']) copyFileSync(path.join(root, name), path.join(cwd, name))
  // Where an upload is received (UPLOADS_DIR/incoming) before it goes to the bucket.
  return { cwd, tmp, uploads: path.join(dir, 'uploads') }
}
const own = process.env.E2E_MACHINE ? machine() : null

// Last before the server: nothing above can fail and leave it running.
const missing = process.env.E2E_PGBOUNCER && pgBouncerMissing()
if (missing) console.error(`e2e-server: ${missing}; the server connects to PostgreSQL directly`)
const bouncer = process.env.E2E_PGBOUNCER && !missing ? await startPgBouncer(databaseUrl).catch((error: Error) => fail(error.message)) : null
console.error(`e2e-server: ${databaseUrl} ready${bouncer ? `, through PgBouncer at ${bouncer.url}` : ''}; starting next on port ${port}`)

// As `npm run serve` (package.json): idle connections kept 65 s, longer than clients and proxies keep theirs (nginx's
// upstream connections idle up to 60 s), so that the server never closes one just as a request is sent on it.
const KEEP_ALIVE_MS = '65000'
const next = spawn(process.execPath, [require.resolve('next/dist/bin/next'), 'start', '-p', port, '--keepAliveTimeout', KEEP_ALIVE_MS], {
  cwd: own?.cwd ?? root,
  env: {
    ...env,
    ...(bouncer ? { DATABASE_URL: bouncer.url, MIGRATION_DATABASE_URL: databaseUrl } : {}),
    ...(own ? { TMPDIR: own.tmp, UPLOADS_DIR: own.uploads } : {}),
  },
  stdio: 'inherit',
})
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (next.exitCode === null && next.signalCode === null) next.kill(signal)
  })
}
next.on('exit', (code, signal) => {
  void (bouncer?.stop() ?? Promise.resolve()).finally(() => process.exit(code ?? (signal ? 0 : 1)))
})
next.on('error', (error) => {
  void (bouncer?.stop() ?? Promise.resolve()).finally(() => fail(`cannot start next: ${error.message}`))
})
