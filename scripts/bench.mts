#!/usr/bin/env node
// `npm run bench`: how long `places import` takes for N generated places, and how fast the built server answers the
// public GeoJSON routes over them. BENCHMARKS.md explains the figures.
//
//   npm run bench -- [--places 100000] [--db sqlite|postgres] [--build] [--runs 3] [--duration 10] [--connections 16] [--mapserver]
//
// --mapserver: the OGC requests also measured on MapServer serving the same places (bench/mapserver.mts, issue 18).
// PostgreSQL: BENCH_DATABASE_URL, else postgresql://places:places@127.0.0.1:5432/places_bench (created if missing).
// The bench empties that database, so it refuses one that is not on this machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { closeSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import Database from 'better-sqlite3'
import pg from 'pg'
import { writePlaces } from '../bench/generate.mts'
import { shuffle } from '../bench/prng.ts'
import { compareWithPlaces, mapServerProblem, startMapServer } from '../bench/mapserver.mts'
import { searchLines, timeSearches } from '../bench/search.mts'
import { median, percentile, round2 } from '../bench/stats.mts'
import { PUBLIC_IDS_SEED, writeLines, writesBesideViews } from '../bench/writes.mts'
import { hasNginx, NGINX, startNginx } from '../deploy/nginx.mts'
import { resetDatabase } from './reset-database.mts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PORT = 3199
const BASE_URL = `http://127.0.0.1:${PORT}`
const MACHINE_FLOOR_PORT = 3198
const NGINX_PORT = 3197
const MAPSERVER_PORT = 3196
const COLD_SAMPLES = 40
const GPS_SAMPLES = 500
const DEFAULT_PG_URL = 'postgresql://places:places@127.0.0.1:5432/places_bench'
const ADMIN_EMAIL = 'bench@example.org'
const ADMIN = ['--email', ADMIN_EMAIL, '--password', 'benchbench', '--role', 'administrator']
const WARM_UP_SECONDS = 10

const options = {
  places: { type: 'string', default: '100000' },
  db: { type: 'string', default: 'sqlite' },
  build: { type: 'boolean', default: false },
  runs: { type: 'string', default: '3' },
  duration: { type: 'string', default: '10' },
  connections: { type: 'string', default: '16' },
  mapserver: { type: 'boolean', default: false },
} as const
let opts: ReturnType<typeof parseArgs<{ options: typeof options }>>['values']
try {
  opts = parseArgs({
    options,
  }).values
} catch (error) {
  usage((error as Error).message)
}
const N = positive('places')
const RUNS = positive('runs')
const DURATION = positive('duration')
const CONNECTIONS = positive('connections')
if (!['sqlite', 'postgres'].includes(opts.db)) usage('--db must be sqlite or postgres')

function positive(name: 'places' | 'runs' | 'duration' | 'connections'): number {
  const value = Number(opts[name])
  if (!Number.isInteger(value) || value < 1) usage(`--${name} must be a positive integer`)
  return value
}

function usage(message: string): never {
  console.error(
    `bench: ${message}\nUsage: npm run bench -- [--places N] [--db sqlite|postgres] [--build] [--runs R] [--duration S] [--connections C] [--mapserver]`,
  )
  process.exit(2)
}

/** Stops the bench with a message; the `finally` below still stops the server and removes the scratch folder. */
function fail(message: string): never {
  throw Object.assign(new Error(message), { isBenchFailure: true })
}

const log = (message: string) => console.error(`bench: ${message}`)
const seconds = (ms: number) => Math.round(ms / 10) / 100
const loadAverage = () => os.loadavg().map((x) => Math.round(x * 100) / 100)
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0
if (spawnSync('wrk', ['--version']).error) usage('wrk, the load generator, is not installed: apt-get install wrk')
const mapServerMissing = opts.mapserver ? mapServerProblem() : undefined
if (mapServerMissing) usage(`--mapserver cannot run MapServer here: ${mapServerMissing}`)
/** A command pinned to one core when taskset is there: the server on core 0, the load generator on core 1. */
const pinned = (core: number, command: string, args: string[]): [string, string[]] =>
  hasTaskset ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]

// ---------------------------------------------------------------------------------------------------- processes
/** pid → parent pid, for every process (from /proc/<pid>/stat; its second field may hold spaces and parentheses). */
function parentPids(): Map<number, number> {
  const parents = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {} // gone meanwhile
  }
  return parents
}

function processTree(pid: number): number[] {
  const parents = parentPids()
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child)
  return tree
}

/** A field of /proc/<pid>/status in kB (VmRSS: resident now, VmHWM: the most resident so far); NaN once it is gone. */
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))?.[1])
  } catch {
    return Number.NaN
  }
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return ''
  }
}

/** Samples every 100 ms the resident memory of the process `pickPid()` names; `stop()` returns the peak in MB. */
function sampleRss(pickPid: () => number): { stop: () => number } {
  let peakKb = 0
  const sample = () => {
    const kb = statusKb(pickPid(), 'VmRSS')
    if (kb > peakKb) peakKb = kb
  }
  const timer = setInterval(sample, 100).unref() // never what keeps the bench alive
  sample()
  return { stop: () => (clearInterval(timer), sample(), Math.round(peakKb / 1024)) }
}

/**
 * Runs a command to its end; resolves with its stdout, the wall-clock ms and, with `measureRss`, the peak RSS of its
 * largest process (scanning /proc costs CPU: not while the load generator runs).
 */
type RunResult = { stdout: string; ms: number; peakRssMb: number | undefined }

/** `stdoutFile`: the command's output goes to that file rather than into `stdout` (an export of 1,000,000 places is more than a string holds). */
type RunOptions = { measureRss?: boolean; stdoutFile?: string }

async function run(command: string, args: string[], env: NodeJS.ProcessEnv, { measureRss = false, stdoutFile }: RunOptions = {}): Promise<RunResult> {
  const started = performance.now()
  const output = stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'w')
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', output, 'inherit'] })
  if (typeof output === 'number') closeSync(output)
  const chunks: Buffer[] = []
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk))
  // `places` runs bin/cli.ts in a child node process: the largest process of the tree is the one doing the work.
  const childPid = child.pid ?? fail(`${command} did not start`)
  const largest = () => processTree(childPid).reduce((best, pid) => (statusKb(pid, 'VmRSS') > statusKb(best, 'VmRSS') ? pid : best), childPid)
  const rss = measureRss ? sampleRss(largest) : undefined
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
  const peakRssMb = rss?.stop()
  const stdout = Buffer.concat(chunks).toString('utf8')
  if (code !== 0) fail(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${stdout.slice(0, 2000)}`)
  return { stdout, ms: performance.now() - started, peakRssMb }
}

// ---------------------------------------------------------------------------------------------------- database
async function freshDatabase(scratch: string): Promise<string> {
  if (opts.db === 'sqlite') return `file:${path.join(scratch, 'places.db')}`
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_PG_URL
  await resetDatabase(url).catch((error: Error) => fail(error.message))
  return url
}

/**
 * The PostgreSQL server's settings that move the figures most: its cache (the search at 1,000,000 reads 200 MB of
 * table and indexes) and how much WAL it writes between checkpoints (an import writes gigabytes). Null on SQLite.
 */
async function serverSettings(databaseUrl: string): Promise<Record<string, string> | null> {
  if (opts.db === 'sqlite') return null
  const names = ['server_version', 'shared_buffers', 'max_wal_size', 'wal_compression']
  const rows = await queryPostgres<{ name: string; setting: string }>(
    databaseUrl,
    'SELECT "name", current_setting("name") AS "setting" FROM unnest($1::text[]) AS "name"',
    [names],
  )
  return Object.fromEntries(rows.map((row) => [row.name, row.setting]))
}

/** The rows of one query, on a connection of its own to the bench's PostgreSQL database. */
async function queryPostgres<Row extends object>(databaseUrl: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query<Row>(sql, values)).rows
  } finally {
    await client.end()
  }
}

// ---------------------------------------------------------------------------------------------------- server
let stopServer = async () => {}
/** Set when the server exits on its own: how it ended. */
let serverExit: string | undefined

/**
 * Starts `npm run serve` on PORT (building first if need be), waits until it answers; returns the next-server pid.
 * `env` sets BENCH_FLOOR_DIR: the build and the server are the bench's own, in .next-bench, with the framework-floor
 * route that the production build lacks (next.config.mjs).
 */
async function startServer(env: NodeJS.ProcessEnv): Promise<number> {
  if (opts.build || !existsSync(path.join(root, '.next-bench', 'BUILD_ID'))) {
    log('building (npx next build, into .next-bench)')
    if (spawnSync('npx', ['next', 'build'], { cwd: root, env, stdio: 'inherit' }).status !== 0) fail('next build failed')
  }
  const busy = await fetch(BASE_URL).then(
    () => true,
    () => false,
  )
  if (busy) fail(`port ${PORT} is already in use: is another bench running?`)
  // As a site is served (package.json: the server's heap limit), pinned to its core.
  const [command, args] = pinned(0, 'npm', ['run', '--silent', 'serve', '--', '-p', String(PORT)])
  // Its own process group, so that stopping it stops npm, next and next-server together.
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
  child.on('exit', (code, signal) => {
    serverExit = signal ? `killed by ${signal}` : `exit code ${code}`
  })
  const childPid = child.pid ?? fail('npm run serve did not start')
  stopServer = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.removeAllListeners('exit')
    process.kill(-childPid, 'SIGTERM')
    await once(child, 'exit')
  }
  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      if (child.exitCode !== null) fail(`the server exited (${child.exitCode}); is port ${PORT} free?`)
      if (Date.now() > deadline) fail('the server did not answer within 60 s')
      try {
        if ((await fetch(`${BASE_URL}/places/v1/geojson?posts_per_page=1`)).ok) break
      } catch {} // not listening yet
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  } catch (error) {
    await stopServer()
    throw error
  }
  // `next start` serves from a child process titled next-server; its memory is the server's.
  const tree = processTree(childPid)
  const serverPid = tree.find((pid) => commandLine(pid).startsWith('next-server')) ?? tree.at(-1) ?? childPid
  return serverPid
}

/** One wrk run (bench/load.lua) over the paths of `pathsFile`, pinned to core 1; the figures the bench reports. */
/** What bench/load.lua prints as its last line. */
type WrkSummary = { requests: number; durationUs: number; p50Us: number; p99Us: number; non2xx: number; errors: number; bytes: number }
type LoadFigures = {
  requestsPerSecond: number
  latencyP50Ms: number
  latencyP99Ms: number
  non2xx: number
  errors: number
  requests: number
  bytesPerResponse: number
}
type Measured = { runs: LoadFigures[]; median: LoadFigures }

/** `headers` go with every request (`Name: value`); `timeout` is wrk's, after which an answer counts as an error (its default is 2 s). */
type LoadOptions = { headers?: string[]; timeout?: number }

async function load(url: string, pathsFile: string, duration: number, { headers = [], timeout = 2 }: LoadOptions = {}): Promise<LoadFigures> {
  const headerArgs = headers.flatMap((header) => ['-H', header])
  const [command, args] = pinned(1, 'wrk', [
    '-t1',
    `-c${CONNECTIONS}`,
    `-d${duration}s`,
    '--timeout',
    `${timeout}s`,
    ...headerArgs,
    '-s',
    path.join(root, 'bench', 'load.lua'),
    url,
  ])
  const output = (await run(command, args, { ...process.env, BENCH_PATHS: pathsFile })).stdout
  const result = JSON.parse(output.trim().split('\n').at(-1) ?? '') as WrkSummary
  return {
    requestsPerSecond: Math.round((result.requests / (result.durationUs / 1e6)) * 10) / 10, // to a tenth: a slow server's are a few
    latencyP50Ms: Math.round(result.p50Us / 10) / 100,
    latencyP99Ms: Math.round(result.p99Us / 10) / 100,
    non2xx: result.non2xx,
    errors: result.errors,
    requests: result.requests,
    bytesPerResponse: Math.round(result.bytes / Math.max(result.requests, 1)),
  }
}

/** A warm-up, then RUNS runs: each run's figures and their medians. */
async function measure(label: string, url: string, paths: string[], scratch: string, options: LoadOptions = {}): Promise<Measured> {
  log(`${label}: warm-up ${WARM_UP_SECONDS} s, then ${RUNS} × ${DURATION} s with ${CONNECTIONS} connections`)
  const pathsFile = path.join(scratch, 'paths.txt')
  writeFileSync(pathsFile, `${paths.join('\n')}\n`)
  await load(url, pathsFile, WARM_UP_SECONDS, options)
  const runs: LoadFigures[] = []
  for (let i = 0; i < RUNS; i++) {
    runs.push(await load(url, pathsFile, DURATION, options))
    if (serverExit) fail(`the server stopped during the load of ${label} (${serverExit})`)
  }
  const keys = Object.keys(runs[0] ?? {}) as (keyof LoadFigures)[]
  return { runs, median: Object.fromEntries(keys.map((key) => [key, median(runs.map((r) => r[key]))])) as LoadFigures }
}

/** bench/floor.mts on MACHINE_FLOOR_PORT, pinned to the server's core. */
async function startMachineFloor(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const [command, args] = pinned(0, process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'floor.mts'), String(MACHINE_FLOOR_PORT), dir])
  const child = spawn(command, args, { stdio: 'inherit' })
  const url = `http://127.0.0.1:${MACHINE_FLOOR_PORT}`
  while (
    !(await fetch(`${url}/api/bench-floor/none`).then(
      () => true,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) fail(`bench/floor.mts exited (${child.exitCode}); is port ${MACHINE_FLOOR_PORT} free?`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return { url, stop: () => stopChild(child) }
}

async function stopChild(child: ChildProcess): Promise<void> {
  child.kill()
  await once(child, 'exit')
}

/** Times `request` once per sample, one at a time; the median and 90th percentile in ms. */
type Timed = { samples: number; medianMs: number; p90Ms: number }

async function timeEach(samples: number, before: (i: number) => unknown, request: () => Promise<void>): Promise<Timed> {
  const times: number[] = []
  for (let i = 0; i < samples; i++) {
    await before(i)
    const started = performance.now()
    await request()
    times.push(performance.now() - started)
  }
  return { samples, medianMs: round2(median(times)), p90Ms: round2(percentile(times, 0.9)) }
}

/**
 * The first request after a write (the answer cannot come from any cache): COLD_SAMPLES times, a post's title
 * changes through a database connection of the bench's own (as another instance or the command line would write),
 * then one GET of the largest page.
 */
async function coldAfterWrite(databaseUrl: string, postId: number) {
  const page = '/places/v1/geojson?posts_per_page=500'
  const fetchPage = async () => {
    const response = await fetch(`${BASE_URL}${page}`)
    if (!response.ok) fail(`${page} answered ${response.status} after a write`)
    await response.arrayBuffer()
  }
  let write: (i: number) => unknown
  let close: () => unknown
  if (opts.db === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^file:/, ''), { timeout: 10_000 })
    const update = db.prepare('UPDATE posts SET title = ? WHERE id = ?')
    write = (i) => update.run(`Cold ${i}`, postId)
    close = () => db.close()
  } else {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    write = (i) => client.query('UPDATE posts SET title = $1 WHERE id = $2', [`Cold ${i}`, postId])
    close = () => client.end()
  }
  try {
    await fetchPage()
    return { path: page, ...(await timeEach(COLD_SAMPLES, write, fetchPage)) }
  } finally {
    await close()
  }
}

/** The ids of the top-level categories, for searches within a category. */
async function rootCategoryIds(databaseUrl: string): Promise<number[]> {
  const sql = 'SELECT "id" FROM "categories" WHERE "parent_id" IS NULL ORDER BY "id"'
  if (opts.db === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^file:/, ''), { readonly: true })
    try {
      return (db.prepare(sql).all() as { id: number }[]).map((row) => row.id)
    } finally {
      db.close()
    }
  }
  return (await queryPostgres<{ id: number }>(databaseUrl, sql)).map((row) => row.id)
}

/**
 * GET /attachment-exif-gps/{id} for a post with 50 images of which only the last has GPS (test/fixtures/exif:
 * exr_noexif.jpg 49 times, then gox_gps.jpg), by an administrator's application password, one request at a time.
 */
async function gpsRoute(places: (...args: string[]) => Promise<RunResult>, postId: number) {
  const photos = path.join(root, 'test', 'fixtures', 'exif')
  await places('media', 'import', '--post', String(postId), ...Array<string>(49).fill(path.join(photos, 'exr_noexif.jpg')), path.join(photos, 'gox_gps.jpg'))
  const secret = (await places('app-password', 'create', '--user', ADMIN_EMAIL)).stdout.trim().split('\n').at(-1)
  const headers = { Authorization: `Basic ${Buffer.from(`${ADMIN_EMAIL}:${secret}`).toString('base64')}` }
  const url = `${BASE_URL}/places/v1/attachment-exif-gps/${postId}`
  const get = async () => {
    const response = await fetch(url, { headers })
    const body = (await response.json()) as { attachment_title?: string }
    if (!response.ok || body.attachment_title !== 'gox_gps') fail(`${url} answered ${response.status}: ${JSON.stringify(body)}`)
  }
  for (let i = 0; i < 50; i++) await get() // warm-up
  return { path: '/places/v1/attachment-exif-gps/{id}', images: 50, ...(await timeEach(GPS_SAMPLES, async () => {}, get)) }
}

/**
 * Issue 18's side by side: the public places as `places export` writes them, served by MapServer (bench/mapserver.mts,
 * pinned to the server's core beside the idle Places server), checked against Places' answers, then the three OGC
 * requests measured as Places' are (the same wrk, connections, runs and cores). MapServer is asked for `f=json`: with
 * no Accept header, as wrk sends, it answers HTML. wrk's timeout is raised to 60 s, since 16 connections queued on a
 * few answers a second wait longer than its default 2 s, and such answers would count as errors instead of answers.
 */
async function besideMapServer(exportTo: (file: string) => Promise<RunResult>, publicIds: number[], scratch: string) {
  const dir = path.join(scratch, 'mapserver')
  mkdirSync(dir)
  const geojson = path.join(dir, 'export.geojson')
  await exportTo(geojson)
  log('MapServer: GeoPackage, mapfile, FastCGI (spawn-fcgi, multiwatch -f 2) behind nginx')
  const server = await startMapServer({ geojson, dir, port: MAPSERVER_PORT, siteUrl: `http://localhost:${PORT}`, cpu: hasTaskset ? 0 : undefined })
  try {
    const checks = await compareWithPlaces(`${BASE_URL}/ogc`, server.url, publicIds.slice(0, 20))
    for (const line of checks) log(`MapServer beside Places: ${line}`)
    const root = new URL(server.url).pathname
    const requests = [
      { name: 'OGC items?limit=100', paths: [`${root}/collections/post/items?limit=100&f=json`] },
      { name: 'OGC items?limit=10&bbox=2,48,3,49', paths: [`${root}/collections/post/items?limit=10&bbox=2,48,3,49&f=json`] },
      { name: 'OGC items/{id}', paths: publicIds.map((id) => `${root}/collections/post/items/${id}?f=json`) },
    ]
    const origin = new URL(server.url).origin
    const measured = []
    for (const request of requests) {
      measured.push({ ...request, mapserver: await measure(`${request.name}: MapServer`, origin, request.paths, scratch, { timeout: 60 }) })
    }
    return { checks, requests: measured }
  } finally {
    await server.stop()
  }
}

// ---------------------------------------------------------------------------------------------------- the bench
const machine: { date: string; nproc: number; cpu: string; node: string; loadAverage: number[]; taskset: boolean; loadAverageAtEnd?: number[] } = {
  date: new Date().toISOString(),
  nproc: os.availableParallelism(),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  loadAverage: loadAverage(),
  taskset: hasTaskset,
}
log(`${N} places on ${opts.db}; ${machine.nproc} cores (${machine.cpu}), node ${machine.node}, load average ${machine.loadAverage.join(' ')}`)
if ((machine.loadAverage[0] ?? 0) > 1) log('warning: the machine is busy (1-minute load above 1): the figures will be lower than they should')

const scratch = mkdtempSync(path.join(os.tmpdir(), 'places-bench-'))
// The server runs in its own process group: Ctrl-C does not reach it, so stop it here.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopServer().finally(() => {
      rmSync(scratch, { recursive: true, force: true })
      process.exit(130)
    })
  })
}
try {
  const databaseUrl = await freshDatabase(scratch)
  const settings = await serverSettings(databaseUrl)
  const settingsLine =
    settings &&
    `PostgreSQL ${Object.entries(settings)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ')}`
  if (settingsLine) log(settingsLine)
  const file = path.join(scratch, 'places.geojson')
  const out = createWriteStream(file)
  const generated = await writePlaces(out, N)
  out.end()
  await once(out, 'close')

  // A server on PostgreSQL refuses to start without AUTH_SECRET (README, Configuration): the bench's own, if none.
  const env = {
    AUTH_SECRET: 'places-bench-auth-secret-0123456789abcdef',
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(PORT),
    NEXT_TELEMETRY_DISABLED: '1',
  }
  const cli = (args: string[], options: RunOptions) => run(process.execPath, [path.join(root, 'bin', 'places.mjs'), ...args], env, options)
  const places = (...args: string[]) => cli(args, { measureRss: true })
  await places('migrate')
  await places('user', 'create', ...ADMIN)
  // The same command with nothing to do: what any `places` command costs before its work (node, tsx, migrate check).
  const startup = await places('migrate')

  log(`importing ${N} places`)
  const imported = await places('import', file)
  const ids = imported.stdout.trim().split('\n').map(Number)
  if (ids.length !== N) fail(`places import printed ${ids.length} ids, expected ${N}`)
  const importResult = {
    seconds: seconds(imported.ms),
    placesPerSecond: Math.round(N / (imported.ms / 1000)),
    peakRssMb: imported.peakRssMb,
    cliStartupSeconds: seconds(startup.ms),
  }
  log(`import: ${importResult.seconds} s`)

  // Every place the public routes show, in a fixed shuffled order: GET /geojson/{id} walks them, not one cached row.
  const publicIds = shuffle(
    generated.publicIndexes.map((index) => ids[index] ?? fail(`no id for place ${index}`)),
    PUBLIC_IDS_SEED,
  )
  if (publicIds.length === 0) fail(`none of the ${N} places is public: use more --places`)
  type Route = {
    name: string
    floor: string
    paths: string[]
    features?: number
    /** asked with Accept-Encoding: br; its floors send the same brotli bytes */
    br?: boolean
    /** a feed, not JSON */
    xml?: boolean
    app?: Measured
    frameworkFloor?: Measured
    machineFloor?: Measured
    behindCache?: Measured
  }
  const routes: Route[] = [
    { name: 'GET /geojson?posts_per_page=500', floor: 'page-500', paths: ['/places/v1/geojson?posts_per_page=500'], features: Math.min(500, publicIds.length) },
    { name: 'GET /geojson/{id}', floor: 'feature', paths: publicIds.map((id) => `/places/v1/geojson/${id}`) },
    // The same page as a browser asks for it (Accept-Encoding: br), beside floors that send the same brotli bytes.
    {
      name: 'GET /geojson?posts_per_page=500, br',
      floor: 'page-500-br',
      paths: ['/places/v1/geojson?posts_per_page=500'],
      features: Math.min(500, publicIds.length),
      br: true,
    },
    { name: 'GET /geojson (50)', floor: 'page-50', paths: ['/places/v1/geojson'], features: Math.min(50, publicIds.length) },
    // The same route over 100 ids only, as a map's popular places are asked for: what a cache in front can keep.
    { name: 'GET /geojson/{id}, 100 ids', floor: 'feature-hot', paths: publicIds.slice(0, 100).map((id) => `/places/v1/geojson/${id}`) },
    // The OGC API over the same places, each beside the REST request it matches (BENCHMARKS.md, OGC API).
    { name: 'OGC items/{id}', floor: 'ogc-feature', paths: publicIds.map((id) => `/ogc/collections/post/items/${id}`) },
    { name: 'GET /geojson?posts_per_page=100', floor: 'page-100', paths: ['/places/v1/geojson?posts_per_page=100'], features: Math.min(100, publicIds.length) },
    { name: 'OGC items?limit=100', floor: 'ogc-100', paths: ['/ogc/collections/post/items?limit=100'], features: Math.min(100, publicIds.length) },
    { name: 'GET /geojson?bbox=2,48,3,49 (10)', floor: 'bbox-10', paths: ['/places/v1/geojson?bbox=2,48,3,49&posts_per_page=10'] },
    { name: 'OGC items?limit=10&bbox=2,48,3,49', floor: 'ogc-bbox-10', paths: ['/ogc/collections/post/items?limit=10&bbox=2,48,3,49'] },
    { name: 'OGC collections', floor: 'ogc-collections', paths: ['/ogc/collections'] },
    // The feeds (issue 51): ten posts with their content, as readers poll them.
    { name: 'GET /feed', floor: 'feed', paths: ['/feed'], xml: true },
    { name: 'GET /feed/atom', floor: 'feed-atom', paths: ['/feed/atom'], xml: true },
  ]

  const floorDir = path.join(scratch, 'floor')
  mkdirSync(floorDir)
  const serverPid = await startServer({ ...env, BENCH_FLOOR_DIR: floorDir })
  log(`server up (next-server pid ${serverPid}: ${commandLine(serverPid)})`)
  for (const route of routes) {
    // A wrong answer measured fast is no result: check each route once first. Its bytes are what the floors return.
    const response = await rawGet(`${BASE_URL}${route.paths[0] ?? ''}`, route.br ? { 'Accept-Encoding': 'br' } : {})
    const bytes = response.body
    if (response.contentEncoding !== (route.br ? 'br' : undefined)) fail(`${route.name} answered in ${response.contentEncoding ?? 'identity'}`)
    const text = (route.br ? brotliDecompressSync(bytes) : bytes).toString('utf8')
    if (response.status !== 200) fail(`${route.name} answered ${response.status}: ${text.slice(0, 300)}`)
    if (route.xml) {
      if (!text.startsWith('<?xml') || !text.includes('<georss:point>')) fail(`${route.name} answered no feed with places: ${text.slice(0, 300)}`)
      writeFileSync(path.join(floorDir, route.floor), bytes)
      continue
    }
    const body = JSON.parse(text) as { features?: unknown[] }
    if (route.features !== undefined && body.features?.length !== route.features) {
      fail(`${route.name} answered ${body.features?.length} features, expected ${route.features}`)
    }
    writeFileSync(path.join(floorDir, route.floor), bytes)
  }

  const wire = await wireSizes('/places/v1/geojson?posts_per_page=500')
  log(`wire: ${wire.path} identity ${wire.identity} B, gzip ${wire.gzip} B, br ${wire.br} B`)

  const idleRssMb = Math.round(statusKb(serverPid, 'VmRSS') / 1024)
  const rss = sampleRss(() => serverPid)
  const brHeader = (route: Route) => (route.br ? ['Accept-Encoding: br'] : [])
  for (const route of routes) route.app = await measure(`${route.name}`, BASE_URL, route.paths, scratch, { headers: brHeader(route) })
  const serverRss = { idleMb: idleRssMb, peakUnderLoadMb: rss.stop(), highWaterMarkMb: Math.round(statusKb(serverPid, 'VmHWM') / 1024) }

  // The two floors, with the very bytes of each route: the same build's empty route handler, and bare node:http.
  for (const route of routes)
    route.frameworkFloor = await measure(`${route.name}: framework floor`, BASE_URL, [`/api/bench-floor/${route.floor}`], scratch, { headers: brHeader(route) })
  const machineFloor = await startMachineFloor(floorDir)
  try {
    for (const route of routes)
      route.machineFloor = await measure(`${route.name}: machine floor`, machineFloor.url, [`/api/bench-floor/${route.floor}`], scratch, {
        headers: brHeader(route),
      })
  } finally {
    await machineFloor.stop()
  }

  // Behind deploy/nginx.conf, the example HTTP cache (nginx pinned to the server's core).
  if (hasNginx()) {
    const nginxDir = path.join(scratch, 'nginx')
    mkdirSync(nginxDir)
    const nginx = await startNginx({ port: NGINX_PORT, upstream: `127.0.0.1:${PORT}`, dir: nginxDir, cpu: 0 })
    try {
      for (const route of routes)
        route.behindCache = await measure(`${route.name}: behind nginx`, nginx.url, route.paths, scratch, { headers: brHeader(route) })
    } finally {
      await nginx.stop()
    }
  } else {
    log(`${NGINX} is not installed (Debian package nginx): no figures behind the HTTP cache`)
  }

  const mapserver = opts.mapserver
    ? await besideMapServer((file) => cli(['export', '--format', 'geojson', '--post-type', 'post'], { stdoutFile: file }), publicIds, scratch)
    : undefined

  const cold = await coldAfterWrite(databaseUrl, publicIds[0]!)
  log(`cold (first request after a write) ${cold.path}: median ${cold.medianMs} ms`)
  const search = await timeSearches(BASE_URL, await rootCategoryIds(databaseUrl))
  log(`search: ${search.kinds.map((s) => `${s.kind} p50 ${s.p50Ms} ms`).join(', ')}`)
  const onePost = path.join(scratch, 'one-post.geojson')
  writeFileSync(
    onePost,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.86] }, properties: { title: 'One more' } }],
    }),
  )
  const writes = await writesBesideViews(BASE_URL, opts.db === 'postgres' ? 'postgres' : 'sqlite', databaseUrl, publicIds, () =>
    cli(['import', onePost, '--author', ADMIN_EMAIL], {}),
  )
  log(`map views under writes: p99 ${writes.underWrites.p99Ms} ms`)
  const gps = await gpsRoute(places, publicIds[1] ?? publicIds[0]!)
  log(`GET /attachment-exif-gps/{id}, 50 images, only the last with GPS: median ${gps.medianMs} ms`)
  await stopServer()
  const exif = JSON.parse(
    (await run(process.execPath, ['--conditions=react-server', '--import', 'tsx', path.join(root, 'bench', 'exif-read.ts')], env)).stdout,
  ) as { name: string; bytes: number; gps: boolean; medianMs: number }[]
  machine.loadAverageAtEnd = loadAverage()

  const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 100) / 100 : null)
  const results = {
    machine,
    db: opts.db,
    settings,
    places: N,
    generated: { publish: generated.publish, withoutGeometry: generated.withoutGeometry, geoPrivate: generated.geoPrivate, public: publicIds.length },
    load: { connections: CONNECTIONS, runs: RUNS, durationSeconds: DURATION, warmUpSeconds: WARM_UP_SECONDS },
    import: importResult,
    wire,
    routes: routes.map(({ name, paths, app = fail('unmeasured'), frameworkFloor = fail('unmeasured'), machineFloor = fail('unmeasured'), behindCache }) => ({
      name,
      path: paths[0],
      distinctPaths: paths.length,
      median: app.median,
      toFrameworkFloor: ratio(app.median.requestsPerSecond, frameworkFloor.median.requestsPerSecond),
      toMachineFloor: ratio(app.median.requestsPerSecond, machineFloor.median.requestsPerSecond),
      behindCacheToMachineFloor: behindCache ? ratio(behindCache.median.requestsPerSecond, machineFloor.median.requestsPerSecond) : null,
      frameworkFloor: frameworkFloor.median,
      machineFloor: machineFloor.median,
      behindCache: behindCache?.median ?? null,
      runs: { app: app.runs, frameworkFloor: frameworkFloor.runs, machineFloor: machineFloor.runs, behindCache: behindCache?.runs ?? null },
    })),
    mapserver: mapserver && {
      checks: mapserver.checks,
      requests: mapserver.requests.map(({ name, paths, mapserver: measured }) => {
        const route = routes.find((route) => route.name === name)
        const placesMedian = route?.app?.median ?? fail(`no Places figures for ${name}`)
        const behindCache = route?.behindCache?.median ?? null
        return {
          name,
          path: paths[0],
          places: placesMedian,
          mapserver: measured.median,
          // Null when MapServer gave no answer within a run (at 1,000,000 places, runs of 5 s): not measured.
          placesToMapServer: ratio(placesMedian.requestsPerSecond, measured.median.requestsPerSecond),
          behindCache,
          behindCacheToMapServer: behindCache ? ratio(behindCache.requestsPerSecond, measured.median.requestsPerSecond) : null,
          runs: measured.runs,
        }
      }),
    },
    serverRss,
    cold,
    writes,
    search,
    attachmentGps: gps,
    exifRead: exif,
  }
  const resultsDir = path.join(root, 'bench', 'results')
  mkdirSync(resultsDir, { recursive: true })
  const variant = CONNECTIONS === 16 ? '' : `-c${CONNECTIONS}`
  const resultsFile = path.join(resultsDir, `${machine.date.slice(0, 10)}-${opts.db}-${N}${variant}.json`)
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`)

  const row = (cells: (string | number | null)[]) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(34) : String(cell).padStart(9))).join(' ')
  const rate = (m: LoadFigures | null) => (m ? Math.round(m.requestsPerSecond) : '-')
  console.log(`\nPlaces bench: ${N} places on ${opts.db}, ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}`)
  if (settingsLine) console.log(settingsLine)
  console.log(
    `load average at start: ${machine.loadAverage.join(' ')}, at end: ${machine.loadAverageAtEnd.join(' ')}; server pinned to core 0, load generator to core 1: ${hasTaskset ? 'yes' : 'no (no taskset)'}\n`,
  )
  console.log(
    `import: ${importResult.seconds} s (${importResult.placesPerSecond} places/s; the CLI's own start-up is ${importResult.cliStartupSeconds} s of it), peak RSS ${importResult.peakRssMb} MB`,
  )
  console.log(`${importTargets(N, opts.db, importResult).join('\n')}\n`)
  console.log(row(['route (median of runs)', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'KB/resp']))
  for (const { name, median: m } of results.routes) {
    console.log(row([name, Math.round(m.requestsPerSecond), m.latencyP50Ms, m.latencyP99Ms, m.non2xx, m.errors, (m.bytesPerResponse / 1024).toFixed(1)]))
  }
  console.log(`\n${row(['req/s, same bytes', 'route', 'framework', 'machine', 'route/fw', 'route/mach', 'nginx', 'nginx/mach'])}`)
  for (const r of results.routes) {
    console.log(
      row([
        r.name,
        rate(r.median),
        rate(r.frameworkFloor),
        rate(r.machineFloor),
        r.toFrameworkFloor,
        r.toMachineFloor,
        rate(r.behindCache),
        r.behindCacheToMachineFloor ?? '-',
      ]),
    )
  }
  console.log(
    `\nbytes on the wire, ${wire.path}: identity ${(wire.identity / 1024).toFixed(1)} KB, gzip ${(wire.gzip / 1024).toFixed(1)} KB, br ${(wire.br / 1024).toFixed(1)} KB`,
  )
  console.log(compressionTargets(wire, results.routes.find((r) => r.name === 'GET /geojson?posts_per_page=500, br')?.toFrameworkFloor ?? null).join('\n'))
  console.log(`\ncold, the first request after a write (${cold.samples} writes): ${cold.path} median ${cold.medianMs} ms, p90 ${cold.p90Ms} ms`)
  console.log(`the search, each query once, one at a time (a word, a prefix, a phrase; alone, with bbox, category, both):`)
  console.log(searchLines(N, search).join('\n'))
  console.log('the map while the data changes, written by another connection (issue 15):')
  console.log(writeLines(N, writes).join('\n'))
  console.log(
    `GET /attachment-exif-gps/{id}, 50 images and only the last with GPS (${gps.samples} requests, one at a time): median ${gps.medianMs} ms, p90 ${gps.p90Ms} ms`,
  )
  console.log(
    `\nnext-server RSS: ${serverRss.idleMb} MB idle, ${serverRss.peakUnderLoadMb} MB peak under load (high-water mark ${serverRss.highWaterMarkMb} MB)`,
  )
  console.log('\nreading the GPS of each corpus photo, as an upload does (median of 200 reads):')
  for (const photo of exif)
    console.log(
      `  ${photo.name.padEnd(40)} ${(photo.bytes / 1024).toFixed(0).padStart(6)} KB  ${photo.gps ? 'GPS   ' : 'no GPS'}  ${photo.medianMs.toFixed(3)} ms`,
    )
  if (results.mapserver) printMapServer(results.mapserver)
  console.log(`raw results: ${path.relative(root, resultsFile)}`)
  const measuredRuns: { name: string; runs: (LoadFigures[] | null)[] }[] = [
    ...results.routes.map((r) => ({ name: r.name, runs: Object.values(r.runs) })),
    ...(results.mapserver?.requests ?? []).map((r) => ({ name: `${r.name} on MapServer`, runs: [r.runs] })),
  ]
  const failures = measuredRuns.filter((r) => r.runs.flat().some((x) => x && (x.non2xx > 0 || x.errors > 0)))
  if (failures.length > 0) fail(`non-2xx answers or errors on: ${failures.map((r) => r.name).join(', ')}`)
} catch (error) {
  const isBenchFailure = error instanceof Error && 'isBenchFailure' in error
  console.error(`bench: ${isBenchFailure ? error.message : error instanceof Error ? error.stack : String(error)}`)
  process.exitCode = 1
} finally {
  await stopServer()
  rmSync(scratch, { recursive: true, force: true })
}

/** One GET with these headers, its body as it came on the wire (node:http neither asks for a coding nor decodes one). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; contentEncoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, contentEncoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
      )
    })
      .on('error', reject)
      .end()
  })
}

/** The body's size on the wire in each coding, the server's own choice for each Accept-Encoding; checked to decode alike. */
async function wireSizes(page: string): Promise<{ path: string; identity: number; gzip: number; br: number }> {
  const identity = await rawGet(`${BASE_URL}${page}`, {})
  const gzip = await rawGet(`${BASE_URL}${page}`, { 'Accept-Encoding': 'gzip' })
  const br = await rawGet(`${BASE_URL}${page}`, { 'Accept-Encoding': 'br' })
  if (identity.contentEncoding || gzip.contentEncoding !== 'gzip' || br.contentEncoding !== 'br') fail(`${page}: not the codings asked for`)
  if (!gunzipSync(gzip.body).equals(identity.body) || !brotliDecompressSync(br.body).equals(identity.body)) fail(`${page}: a coding decodes to other bytes`)
  return { path: page, identity: identity.body.length, gzip: gzip.body.length, br: br.body.length }
}

/**
 * The compression's targets (issue 15): the 500 page at least 5 times smaller on the wire (br and gzip each), and its
 * throughput in br at least 0.8 of the framework floor sending the same brotli bytes; each beside the figure.
 */
function compressionTargets(wire: { identity: number; gzip: number; br: number }, brToFrameworkFloor: number | null): string[] {
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')
  const times = (coded: number) => Math.round((wire.identity / coded) * 10) / 10
  return [
    `  target 500 page in br >= 5x smaller: ${times(wire.br)}x ${verdict(times(wire.br) >= 5)}`,
    `  target 500 page in gzip >= 5x smaller: ${times(wire.gzip)}x ${verdict(times(wire.gzip) >= 5)}`,
    `  target 500 page in br >= 0.8 of the framework floor with the same bytes: ${brToFrameworkFloor ?? 'not measured'} ${brToFrameworkFloor === null ? '' : verdict(brToFrameworkFloor >= 0.8)}`.trimEnd(),
  ]
}

/**
 * The side by side of issue 18: each OGC request's median req/s on Places and on MapServer, their ratio, and the
 * target: Places at least 10× MapServer on the same data, on every one of the three. The target is the app server's
 * own; Places behind deploy/nginx.conf (which keeps its OGC answers, as a site would serve them) is shown beside it.
 */
function printMapServer({
  checks,
  requests,
}: {
  checks: string[]
  requests: {
    name: string
    places: LoadFigures
    mapserver: LoadFigures
    placesToMapServer: number | null
    behindCache: LoadFigures | null
    behindCacheToMapServer: number | null
  }[]
}) {
  const row = (cells: (string | number | null)[]) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(34) : String(cell).padStart(11))).join(' ')
  console.log(`\n${row(['OGC request, median req/s', 'Places', 'MapServer', 'Places ÷ MS', 'p50 ms P', 'p50 ms MS', 'P + nginx', 'P+ng ÷ MS'])}`)
  for (const r of requests) {
    console.log(
      row([
        r.name,
        Math.round(r.places.requestsPerSecond),
        r.mapserver.requestsPerSecond,
        r.placesToMapServer ?? 'no answer',
        r.places.latencyP50Ms,
        r.placesToMapServer === null ? 'n/a' : r.mapserver.latencyP50Ms,
        r.behindCache ? Math.round(r.behindCache.requestsPerSecond) : 'n/a',
        r.behindCacheToMapServer ?? 'n/a',
      ]),
    )
  }
  const measured = requests.filter((r) => r.placesToMapServer !== null)
  const unanswered = requests.filter((r) => r.placesToMapServer === null).map((r) => r.name)
  if (measured.length > 0) {
    const lowest = measured.reduce((a, b) => ((a.placesToMapServer ?? 0) <= (b.placesToMapServer ?? 0) ? a : b))
    const pass = measured.every((r) => (r.placesToMapServer ?? 0) >= 10)
    console.log(
      `target (issue 18): Places' OGC at least 10× MapServer on the same data: ${pass ? 'PASS' : 'FAIL'} (lowest ${lowest.placesToMapServer}×, ${lowest.name})`,
    )
  }
  if (unanswered.length > 0) {
    console.log(`not measured: ${unanswered.join(', ')}: MapServer gave no answer within a run of ${DURATION} s (a longer --duration may measure it)`)
  }
  console.log(`MapServer's answers beside Places':\n${checks.map((line) => `  ${line}`).join('\n')}`)
}

/**
 * The import's targets (issue 15): 1,000,000 places in under 60 s on SQLite and 120 s on PostgreSQL, 100,000 in under
 * 8 s, peak RSS under 300 MB; each beside the figure, PASS or FAIL. Other sizes have no target of their own.
 */
function importTargets(places: number, db: string, result: { seconds: number; peakRssMb: number | undefined }): string[] {
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')
  const limit = places === 1_000_000 ? (db === 'postgres' ? 120 : 60) : places === 100_000 ? 8 : null
  const lines = [`  target peak RSS < 300 MB: ${result.peakRssMb === undefined ? 'not measured' : `${result.peakRssMb} MB ${verdict(result.peakRssMb < 300)}`}`]
  if (limit !== null) lines.unshift(`  target import of ${places} places < ${limit} s: ${result.seconds} s ${verdict(result.seconds < limit)}`)
  return lines
}
