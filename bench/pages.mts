#!/usr/bin/env node
// `npm run bench:pages`: Lighthouse (mobile preset: a mid-range phone on a slow 4G link, simulated) on the public
// pages a visitor opens first, the home map, a post page with photos and a trip's page (a real hike of 871 points,
// test/fixtures/tracks), on the demo data, in Debian's Chromium.
//
//   npm run bench:pages -- [--runs 3] [--port 3196] [--build]
//
// Prints, per page, the median over the runs of the four category scores (performance, accessibility, best
// practices, SEO) and of the Core Web Vitals Lighthouse measures in the lab (LCP, CLS, TBT standing for INP, which
// needs a real visitor, FCP), then the console errors it saw, and the whole as JSON on the last line. BENCHMARKS.md
// keeps the figures. The server runs with MAP_TILE_URL=none: these machines reach no tile server, and a failed tile
// would count against the page as a console error.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { median } from './stats.mts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    port: { type: 'string', default: '3196' },
    build: { type: 'boolean', default: false },
  },
})
const RUNS = Number(opts.runs)
const PORT = Number(opts.port)
if (!Number.isInteger(RUNS) || RUNS < 1 || !Number.isInteger(PORT)) {
  console.error('usage: npm run bench:pages -- [--runs N] [--port P] [--build]')
  process.exit(2)
}
const BASE_URL = `http://127.0.0.1:${PORT}`
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'places-bench-pages-'))
const databaseFile = path.join(dataDir, 'places.db')
const env = {
  ...process.env,
  DATABASE_URL: `file:${databaseFile}`,
  UPLOADS_DIR: path.join(dataDir, 'uploads'),
  PORT: String(PORT),
  SITE_URL: BASE_URL,
  MAP_TILE_URL: 'none',
  NEXT_TELEMETRY_DISABLED: '1',
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
const VITALS = { LCP: 'largest-contentful-paint', CLS: 'cumulative-layout-shift', TBT: 'total-blocking-time', FCP: 'first-contentful-paint' } as const

function log(message: string): void {
  process.stderr.write(`bench:pages: ${message}\n`)
}

function places(...args: string[]): void {
  const run = spawnSync(process.execPath, [path.join(root, 'bin', 'places.mjs'), ...args], { cwd: root, env, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`places ${args.join(' ')} failed:\n${run.stderr}`)
}

async function startServer(): Promise<ChildProcess> {
  const server = spawn(process.execPath, [require.resolve('next/dist/bin/next'), 'start', '-p', String(PORT)], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${BASE_URL}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (ok) return server
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the server did not start within 60 s')
}

/** The demo's post page with the most photos (and a public place), or its newest post when none has photos. */
function postWithPhotos(): string {
  const db = new Database(databaseFile, { readonly: true })
  try {
    const row = db
      .prepare(
        `SELECT p.type, p.slug FROM posts p LEFT JOIN attachments a ON a.post_id = p.id
         WHERE p.status = 'publish' AND p.public_latitude IS NOT NULL
         GROUP BY p.id ORDER BY COUNT(a.id) DESC, p.published_at DESC LIMIT 1`,
      )
      .get() as { type: string; slug: string } | undefined
    if (!row) throw new Error('the demo has no published place')
    return `/${encodeURIComponent(row.type)}/${encodeURIComponent(row.slug)}`
  } finally {
    db.close()
  }
}

/** The page of the one trip the bench imports. */
function tripPage(): string {
  const db = new Database(databaseFile, { readonly: true })
  try {
    const row = db.prepare(`SELECT slug FROM trips ORDER BY id LIMIT 1`).get() as { slug: string } | undefined
    if (!row) throw new Error('the trip was not imported')
    return `/trip/${encodeURIComponent(row.slug)}`
  } finally {
    db.close()
  }
}

type Lhr = {
  categories: Record<string, { score: number | null }>
  audits: Record<string, { numericValue?: number; details?: { items?: { description?: string; source?: string; url?: string }[] } }>
  runtimeError?: { message: string }
  environment: { benchmarkIndex: number }
}

// Lighthouse now and then loses its trace of a load (NO_NAVSTART, "Please run Lighthouse again"): one more try.
function lighthouse(url: string, retry = true): Lhr {
  const run = spawnSync(
    path.join(root, 'node_modules', '.bin', 'lighthouse'),
    [
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--only-categories=${CATEGORIES.join(',')}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking',
    ],
    { cwd: root, env: { ...process.env, CHROME_PATH: CHROMIUM }, encoding: 'utf8', maxBuffer: 256 << 20 },
  )
  if (run.status !== 0 && retry && run.stderr.includes('Please run Lighthouse again')) {
    log(`${url}: lighthouse lost its trace, running it again`)
    return lighthouse(url, false)
  }
  if (run.status !== 0) throw new Error(`lighthouse failed on ${url}:\n${run.stderr}`)
  const lhr = JSON.parse(run.stdout) as Lhr
  if (lhr.runtimeError) throw new Error(`lighthouse could not measure ${url}: ${lhr.runtimeError.message}`)
  return lhr
}

type PageResult = { path: string; scores: Record<string, number>; vitals: Record<string, number>; benchmarkIndex: number; consoleErrors: string[] }

function measure(pagePath: string): PageResult {
  const runs: Lhr[] = []
  for (let i = 0; i < RUNS; i++) {
    log(`${pagePath}: run ${i + 1} of ${RUNS}`)
    runs.push(lighthouse(`${BASE_URL}${pagePath}`))
  }
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round(median(runs.map((lhr) => lhr.categories[id]?.score ?? 0)) * 100)]))
  const vitals = Object.fromEntries(
    Object.entries(VITALS).map(([name, audit]) => [name, median(runs.map((lhr) => lhr.audits[audit]?.numericValue ?? Number.NaN))]),
  )
  const consoleErrors = [
    ...new Set(
      runs.flatMap((lhr) =>
        (lhr.audits['errors-in-console']?.details?.items ?? []).map((item) => `${item.description ?? item.source ?? ''}${item.url ? ` (${item.url})` : ''}`),
      ),
    ),
  ]
  const benchmarkIndex = median(runs.map((lhr) => lhr.environment.benchmarkIndex))
  return { path: pagePath, scores, vitals, benchmarkIndex, consoleErrors }
}

function print(results: PageResult[]): void {
  console.log(`\nLighthouse ${(require('lighthouse/package.json') as { version: string }).version}, mobile preset, median of ${RUNS} run(s)`)
  // Lighthouse's measure of the machine's speed: the 4× slowdown assumes a fast desktop (above 1,500); a loaded
  // machine measures lower, and its pages score lower with it.
  console.log(`benchmark index ${results.map((r) => Math.round(r.benchmarkIndex)).join(', ')}\n`)
  console.log(['page', ...CATEGORIES, 'LCP ms', 'CLS', 'TBT ms', 'FCP ms'].join('\t'))
  for (const { path: pagePath, scores, vitals } of results) {
    const { LCP, CLS, TBT, FCP } = vitals as Record<keyof typeof VITALS, number>
    console.log([pagePath, ...CATEGORIES.map((id) => scores[id]), Math.round(LCP), CLS.toFixed(3), Math.round(TBT), Math.round(FCP)].join('\t'))
  }
  for (const { path: pagePath, consoleErrors } of results) {
    console.log(`\nconsole errors on ${pagePath}: ${consoleErrors.length === 0 ? 'none' : `\n  ${consoleErrors.join('\n  ')}`}`)
  }
  console.log(JSON.stringify(results))
}

let server: ChildProcess | undefined
try {
  if (opts.build || !existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    log('building…')
    if (spawnSync('npx', ['next', 'build'], { cwd: root, env, stdio: 'inherit' }).status !== 0) throw new Error('the build failed')
  }
  places('migrate')
  places('seed', '--demo')
  places('import', path.join(root, 'test', 'fixtures', 'tracks', 'korita-zbevnica.gpx'))
  server = await startServer()
  const pages = ['/', postWithPhotos(), tripPage()]
  // One visit each first: the map's index and the post's page are built on the first request, not measured.
  for (const pagePath of pages) await fetch(`${BASE_URL}${pagePath}`)
  print(pages.map(measure))
} finally {
  server?.kill()
  rmSync(dataDir, { recursive: true, force: true })
}
