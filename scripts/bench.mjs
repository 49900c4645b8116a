#!/usr/bin/env node
// `npm run bench`: how long `places import` takes for N generated places, and how fast the built server answers the
// public GeoJSON routes over them. BENCHMARKS.md explains the figures.
//
//   npm run bench -- [--places 100000] [--db sqlite|postgres] [--build] [--runs 3] [--duration 10] [--connections 16]
//
// PostgreSQL: BENCH_DATABASE_URL, else postgresql://places:places@127.0.0.1:5432/places_bench (created if missing).
// The bench empties that database, so it refuses one that is not on this machine.
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { prng, writePlaces } from '../bench/generate.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PORT = 3199
const BASE_URL = `http://127.0.0.1:${PORT}`
const DEFAULT_PG_URL = 'postgresql://places:places@127.0.0.1:5432/places_bench'
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])
const ADMIN = ['--email', 'bench@example.org', '--password', 'benchbench', '--role', 'administrator']
const WARM_UP_SECONDS = 3

let opts
try {
  opts = parseArgs({
    options: {
      places: { type: 'string', default: '100000' },
      db: { type: 'string', default: 'sqlite' },
      build: { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '16' },
    },
  }).values
} catch (error) {
  usage(error.message)
}
const N = positive('places')
const RUNS = positive('runs')
const DURATION = positive('duration')
const CONNECTIONS = positive('connections')
if (!['sqlite', 'postgres'].includes(opts.db)) usage('--db must be sqlite or postgres')

function positive(name) {
  const value = Number(opts[name])
  if (!Number.isInteger(value) || value < 1) usage(`--${name} must be a positive integer`)
  return value
}

function usage(message) {
  console.error(`bench: ${message}\nUsage: npm run bench -- [--places N] [--db sqlite|postgres] [--build] [--runs R] [--duration S] [--connections C]`)
  process.exit(2)
}

/** Stops the bench with a message; the `finally` below still stops the server and removes the scratch folder. */
function fail(message) {
  throw Object.assign(new Error(message), { isBenchFailure: true })
}

const log = (message) => console.error(`bench: ${message}`)
const seconds = (ms) => Math.round(ms / 10) / 100
const loadAverage = () => os.loadavg().map((x) => Math.round(x * 100) / 100)
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0
/** A command pinned to one core when taskset is there: the server on core 0, the load generator on core 1. */
const pinned = (core, command, args) => (hasTaskset ? ['taskset', ['-c', String(core), command, ...args]] : [command, args])

// ---------------------------------------------------------------------------------------------------- processes
/** pid → parent pid, for every process (from /proc/<pid>/stat; its second field may hold spaces and parentheses). */
function parentPids() {
  const parents = new Map()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {} // gone meanwhile
  }
  return parents
}

function processTree(pid) {
  const parents = parentPids()
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child)
  return tree
}

/** A field of /proc/<pid>/status in kB (VmRSS: resident now, VmHWM: the most resident so far); NaN once it is gone. */
function statusKb(pid, field) {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'))?.[1])
  } catch {
    return Number.NaN
  }
}

const commandLine = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
  } catch {
    return ''
  }
}

/** Samples every 100 ms the resident memory of the process `pickPid()` names; `stop()` returns the peak in MB. */
function sampleRss(pickPid) {
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
async function run(command, args, env, { measureRss = false } = {}) {
  const started = performance.now()
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] })
  const chunks = []
  child.stdout.on('data', (chunk) => chunks.push(chunk))
  // `places` runs bin/cli.ts in a child node process: the largest process of the tree is the one doing the work.
  const largest = () => processTree(child.pid).reduce((best, pid) => (statusKb(pid, 'VmRSS') > statusKb(best, 'VmRSS') ? pid : best), child.pid)
  const rss = measureRss ? sampleRss(largest) : undefined
  const [code, signal] = await once(child, 'exit')
  const peakRssMb = rss?.stop()
  const stdout = Buffer.concat(chunks).toString('utf8')
  if (code !== 0) fail(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${stdout.slice(0, 2000)}`)
  return { stdout, ms: performance.now() - started, peakRssMb }
}

// ---------------------------------------------------------------------------------------------------- database
async function freshDatabase(scratch) {
  if (opts.db === 'sqlite') return `file:${path.join(scratch, 'places.db')}`
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_PG_URL
  let parsed
  try {
    parsed = new URL(url)
  } catch {
    fail('BENCH_DATABASE_URL is not a valid postgresql:// URL')
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol)) fail('BENCH_DATABASE_URL must start with postgresql://')
  // The bench drops the database's schema: never one on another machine, named by a mistaken variable.
  if (!LOCAL_HOSTS.has(parsed.hostname)) fail(`refusing to empty the non-local database at host "${parsed.hostname}"`)
  const name = decodeURIComponent(parsed.pathname.slice(1))
  const maintenance = new URL(url)
  maintenance.pathname = '/postgres'
  const admin = new pg.Client({ connectionString: maintenance.href })
  await admin.connect()
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount === 0) {
      log(`creating database ${name}`)
      await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`)
    }
  } finally {
    await admin.end()
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('DROP SCHEMA IF EXISTS public CASCADE')
    await client.query('CREATE SCHEMA public')
  } finally {
    await client.end()
  }
  return url
}

// ---------------------------------------------------------------------------------------------------- server
let stopServer = async () => {}
/** Set when the server exits on its own: how it ended. */
let serverExit

/** Starts `next start` on PORT (building first if need be), waits until it answers; returns the next-server pid. */
async function startServer(env) {
  if (opts.build || !existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    log('building (npx next build)')
    if (spawnSync('npx', ['next', 'build'], { cwd: root, env, stdio: 'inherit' }).status !== 0) fail('next build failed')
  }
  const busy = await fetch(BASE_URL).then(() => true, () => false)
  if (busy) fail(`port ${PORT} is already in use: is another bench running?`)
  const [command, args] = pinned(0, 'npx', ['next', 'start', '-p', String(PORT)])
  // Its own process group, so that stopping it stops npx, next and next-server together.
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
  child.on('exit', (code, signal) => {
    serverExit = signal ? `killed by ${signal}` : `exit code ${code}`
  })
  stopServer = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.removeAllListeners('exit')
    process.kill(-child.pid, 'SIGTERM')
    await once(child, 'exit')
  }
  try {
    const deadline = Date.now() + 60_000
    for (;;) {
      if (child.exitCode !== null) fail(`next start exited (${child.exitCode}); is port ${PORT} free?`)
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
  const tree = processTree(child.pid)
  const serverPid = tree.find((pid) => commandLine(pid).startsWith('next-server')) ?? tree.at(-1)
  return serverPid
}

/** One autocannon run in a child process (pinned to core 1); the figures of its result that the bench reports. */
async function load(paths, duration, scratch) {
  const optionsFile = path.join(scratch, 'load.json')
  writeFileSync(optionsFile, JSON.stringify({ url: BASE_URL, paths, connections: CONNECTIONS, duration }))
  const [command, args] = pinned(1, process.execPath, [path.join(root, 'bench', 'load.mjs'), optionsFile])
  const result = JSON.parse((await run(command, args, process.env)).stdout)
  return {
    requestsPerSecond: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    requests: result.requests.total,
    bytesPerResponse: Math.round(result.throughput.total / Math.max(result.requests.total, 1)),
  }
}

// ---------------------------------------------------------------------------------------------------- the bench
const machine = {
  date: new Date().toISOString(),
  nproc: os.availableParallelism(),
  cpu: os.cpus()[0]?.model ?? 'unknown',
  node: process.version,
  loadAverage: loadAverage(),
  taskset: hasTaskset,
}
log(`${N} places on ${opts.db}; ${machine.nproc} cores (${machine.cpu}), node ${machine.node}, load average ${machine.loadAverage.join(' ')}`)
if (machine.loadAverage[0] > 1) log('warning: the machine is busy (1-minute load above 1): the figures will be lower than they should')

const scratch = mkdtempSync(path.join(os.tmpdir(), 'places-bench-'))
// The server runs in its own process group: Ctrl-C does not reach it, so stop it here.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await stopServer()
    rmSync(scratch, { recursive: true, force: true })
    process.exit(130)
  })
}
try {
  const databaseUrl = await freshDatabase(scratch)
  const file = path.join(scratch, 'places.geojson')
  const out = createWriteStream(file)
  const generated = await writePlaces(out, N)
  out.end()
  await once(out, 'close')

  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(PORT), NEXT_TELEMETRY_DISABLED: '1' }
  const places = (...args) => run(process.execPath, [path.join(root, 'bin', 'places.mjs'), ...args], env, { measureRss: true })
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
  const random = prng(2)
  const publicIds = generated.publicIndexes.map((index) => ids[index])
  if (publicIds.length === 0) fail(`none of the ${N} places is public: use more --places`)
  for (let i = publicIds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[publicIds[i], publicIds[j]] = [publicIds[j], publicIds[i]]
  }
  const routes = [
    { name: 'GET /geojson?posts_per_page=500', paths: ['/places/v1/geojson?posts_per_page=500'], features: Math.min(500, publicIds.length) },
    { name: 'GET /geojson/{id}', paths: publicIds.map((id) => `/places/v1/geojson/${id}`) },
    { name: 'GET /geojson (50)', paths: ['/places/v1/geojson'], features: Math.min(50, publicIds.length) },
  ]

  const serverPid = await startServer(env)
  log(`server up (next-server pid ${serverPid}: ${commandLine(serverPid)})`)
  for (const route of routes) {
    // A wrong answer measured fast is no result: check each route once first.
    const response = await fetch(`${BASE_URL}${route.paths[0]}`)
    const body = await response.json()
    if (!response.ok) fail(`${route.name} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`)
    if (route.features !== undefined && body.features?.length !== route.features) {
      fail(`${route.name} answered ${body.features?.length} features, expected ${route.features}`)
    }
  }

  const idleRssMb = Math.round(statusKb(serverPid, 'VmRSS') / 1024)
  const rss = sampleRss(() => serverPid)
  for (const route of routes) {
    log(`${route.name}: warm-up ${WARM_UP_SECONDS} s, then ${RUNS} × ${DURATION} s with ${CONNECTIONS} connections`)
    await load(route.paths, WARM_UP_SECONDS, scratch)
    route.runs = []
    for (let i = 0; i < RUNS; i++) {
      route.runs.push(await load(route.paths, DURATION, scratch))
      if (serverExit) fail(`the server stopped during the load of ${route.name} (${serverExit})`)
    }
    route.median = Object.fromEntries(Object.keys(route.runs[0]).map((key) => [key, median(route.runs.map((r) => r[key]))]))
  }
  const serverRss = { idleMb: idleRssMb, peakUnderLoadMb: rss.stop(), highWaterMarkMb: Math.round(statusKb(serverPid, 'VmHWM') / 1024) }
  await stopServer()
  machine.loadAverageAtEnd = loadAverage()

  const results = {
    machine,
    db: opts.db,
    places: N,
    generated: { publish: generated.publish, withoutGeometry: generated.withoutGeometry, geoPrivate: generated.geoPrivate, public: publicIds.length },
    load: { connections: CONNECTIONS, runs: RUNS, durationSeconds: DURATION, warmUpSeconds: WARM_UP_SECONDS },
    import: importResult,
    routes: routes.map(({ name, paths, runs, median }) => ({ name, path: paths[0], distinctPaths: paths.length, median, runs })),
    serverRss,
  }
  const resultsDir = path.join(root, 'bench', 'results')
  mkdirSync(resultsDir, { recursive: true })
  const variant = CONNECTIONS === 16 ? '' : `-c${CONNECTIONS}`
  const resultsFile = path.join(resultsDir, `${machine.date.slice(0, 10)}-${opts.db}-${N}${variant}.json`)
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`)

  const row = (cells) => cells.map((cell, i) => (i === 0 ? String(cell).padEnd(34) : String(cell).padStart(9))).join(' ')
  console.log(`\nPlaces bench: ${N} places on ${opts.db}, ${machine.nproc} cores, ${machine.cpu}, node ${machine.node}`)
  console.log(`load average at start: ${machine.loadAverage.join(' ')}, at end: ${machine.loadAverageAtEnd.join(' ')}; server pinned to core 0, load generator to core 1: ${hasTaskset ? 'yes' : 'no (no taskset)'}\n`)
  console.log(`import: ${importResult.seconds} s (${importResult.placesPerSecond} places/s; the CLI's own start-up is ${importResult.cliStartupSeconds} s of it), peak RSS ${importResult.peakRssMb} MB\n`)
  console.log(row(['route (median of runs)', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'KB/resp']))
  for (const { name, median: m } of results.routes) {
    console.log(row([name, Math.round(m.requestsPerSecond), m.latencyP50Ms, m.latencyP99Ms, m.non2xx, m.errors, (m.bytesPerResponse / 1024).toFixed(1)]))
  }
  console.log(`\nnext-server RSS: ${serverRss.idleMb} MB idle, ${serverRss.peakUnderLoadMb} MB peak under load (high-water mark ${serverRss.highWaterMarkMb} MB)`)
  console.log(`raw results: ${path.relative(root, resultsFile)}`)
  const failures = results.routes.filter((r) => r.runs.some((x) => x.non2xx > 0 || x.errors > 0))
  if (failures.length > 0) fail(`non-2xx answers or errors on: ${failures.map((r) => r.name).join(', ')}`)
} catch (error) {
  console.error(`bench: ${error.isBenchFailure ? error.message : error.stack}`)
  process.exitCode = 1
} finally {
  await stopServer()
  rmSync(scratch, { recursive: true, force: true })
}
