#!/usr/bin/env node
// The public map at scale, in a real browser: N published places (made here, around 40 cities, in 12 categories) in
// a fresh SQLite database, the built app (`next build` first) on a spare port, and Debian's Chromium opening the home
// page.
//
//   node --import tsx bench/map-browser.mts [--places 100000] [--port 3198] [--runs 5] [--data DIR] [--fresh]
//
// Prints, as a table and as JSON on the last line:
// - first-load JavaScript of `/`, gzipped: from the build's manifests (what the page's HTML loads, plus the map's
//   chunk that next/dynamic loads at once), and as the browser actually fetched it;
// - time from navigation to the first view drawn (the page marks `places-map:ready` one frame after the clusters of
//   the first view are on the map): warm; on the first visit after a write (the index of places rebuilt); and on
//   the first visit after the server started;
// - frame timing during a scripted sequence of pans and wheel zooms, and how long each move took to show its view.
// The database is kept in DIR (default: the system's temp folder) and reused by later runs unless --fresh.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser, type Page } from '@playwright/test'
import { chromium as browserOptions } from '../playwright.config.ts'
import { median, percentile } from './stats.mts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

const { values: opts } = parseArgs({
  options: {
    places: { type: 'string', default: '100000' },
    port: { type: 'string', default: '3198' },
    runs: { type: 'string', default: '5' },
    data: { type: 'string' },
    fresh: { type: 'boolean', default: false },
  },
})
const N = Number(opts.places)
const PORT = Number(opts.port)
const RUNS = Number(opts.runs)
const BASE_URL = `http://127.0.0.1:${PORT}`
const dataDir = path.resolve(opts.data ?? path.join(os.tmpdir(), `places-map-bench-${N}`))
const databaseUrl = `file:${path.join(dataDir, 'places.db')}`
const VIEWPORT = { width: 1280, height: 800 }
const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(PORT), SITE_URL: BASE_URL, NEXT_TELEMETRY_DISABLED: '1' }

function log(message: string): void {
  process.stderr.write(`map-browser: ${message}\n`)
}

function places(...args: string[]): string {
  const run = spawnSync(process.execPath, [path.join(root, 'bin', 'places.mjs'), ...args], { cwd: root, env, encoding: 'utf8', maxBuffer: 64 << 20 })
  if (run.status !== 0) throw new Error(`places ${args.join(' ')} failed:\n${run.stderr}`)
  return run.stdout
}

const CITIES: [latitude: number, longitude: number, name: string][] = [
  [48.8566, 2.3522, 'Paris'],
  [51.5072, -0.1276, 'London'],
  [52.52, 13.405, 'Berlin'],
  [40.4168, -3.7038, 'Madrid'],
  [41.9028, 12.4964, 'Rome'],
  [52.3676, 4.9041, 'Amsterdam'],
  [48.2082, 16.3738, 'Vienna'],
  [59.3293, 18.0686, 'Stockholm'],
  [38.7223, -9.1393, 'Lisbon'],
  [50.0755, 14.4378, 'Prague'],
  [47.4979, 19.0402, 'Budapest'],
  [37.9838, 23.7275, 'Athens'],
  [41.0082, 28.9784, 'Istanbul'],
  [55.7558, 37.6173, 'Moscow'],
  [30.0444, 31.2357, 'Cairo'],
  [-1.2921, 36.8219, 'Nairobi'],
  [-33.9249, 18.4241, 'Cape Town'],
  [6.5244, 3.3792, 'Lagos'],
  [25.2048, 55.2708, 'Dubai'],
  [19.076, 72.8777, 'Mumbai'],
  [28.6139, 77.209, 'Delhi'],
  [13.7563, 100.5018, 'Bangkok'],
  [1.3521, 103.8198, 'Singapore'],
  [-6.2088, 106.8456, 'Jakarta'],
  [39.9042, 116.4074, 'Beijing'],
  [31.2304, 121.4737, 'Shanghai'],
  [37.5665, 126.978, 'Seoul'],
  [35.6762, 139.6503, 'Tokyo'],
  [-33.8688, 151.2093, 'Sydney'],
  [-36.8485, 174.7633, 'Auckland'],
  [-18.1416, 178.4419, 'Suva'],
  [21.3069, -157.8583, 'Honolulu'],
  [61.2181, -149.9003, 'Anchorage'],
  [37.7749, -122.4194, 'San Francisco'],
  [34.0522, -118.2437, 'Los Angeles'],
  [19.4326, -99.1332, 'Mexico City'],
  [41.8781, -87.6298, 'Chicago'],
  [40.7128, -74.006, 'New York'],
  [-23.5558, -46.6396, 'São Paulo'],
  [-34.6037, -58.3816, 'Buenos Aires'],
]
const KINDS = ['café', 'museum', 'park', 'bakery', 'bridge', 'market', 'gallery', 'viewpoint', 'library', 'theatre', 'garden', 'tower']
const CATEGORIES = [
  'Food & Drink > Cafés',
  'Culture > Museums',
  'Nature > Parks',
  'Food & Drink > Bakeries',
  'Heritage > Bridges',
  'Food & Drink > Markets',
  'Culture > Galleries',
  'Nature > Viewpoints',
  'Culture > Libraries',
  'Culture > Theatres',
  'Nature > Gardens',
  'Heritage > Towers',
]

/** N published places of type post with public geodata, deterministic: dense in cities, thin between them. */
function makePlaces(n: number) {
  let seed = 1
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  const from = Date.UTC(2015, 0, 1)
  return Array.from({ length: n }, (_, i) => {
    const [lat, lng, city] = CITIES[i % CITIES.length]!
    // Three places in four within ~15 km of a city centre, the rest up to ~300 km out.
    const spread = random() < 0.75 ? 0.15 : 3
    const latitude = Math.max(-89.9, Math.min(89.9, lat + (random() - 0.5) * spread))
    const longitude = ((lng + (random() - 0.5) * spread + 540) % 360) - 180
    const kind = Math.floor(random() * KINDS.length)
    const kindName = KINDS[kind]!
    return {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [Math.round(longitude * 1e6) / 1e6, Math.round(latitude * 1e6) / 1e6] },
      properties: {
        title: `${kindName.charAt(0).toUpperCase()}${kindName.slice(1)} no. ${i + 1} in ${city}`,
        slug: `place-${i + 1}`,
        address: `${1 + Math.floor(random() * 200)} Main Street, ${city}`,
        date: new Date(from + Math.floor(random() * 10 * 365 * 86_400) * 1000).toISOString(),
        categories: [CATEGORIES[kind]!],
      },
    }
  })
}

function prepareDatabase() {
  const done = path.join(dataDir, 'ready')
  if (opts.fresh) rmSync(dataDir, { recursive: true, force: true })
  if (existsSync(done)) return log(`reusing ${dataDir} (--fresh to make it anew)`)
  rmSync(dataDir, { recursive: true, force: true })
  mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, 'places.geojson')
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: makePlaces(N) }))
  log(`made ${N} published places; importing…`)
  places('migrate')
  places('user', 'create', '--email', 'bench@example.org', '--password', 'bench-password-0123', '--role', 'administrator')
  const started = performance.now()
  places('import', file)
  log(`imported in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  rmSync(file)
  spawnSync('touch', [done])
}

async function startServer() {
  if (!existsSync(path.join(root, '.next', 'BUILD_ID'))) throw new Error('no build: run `NEXT_TELEMETRY_DISABLED=1 npx next build` first')
  const server = spawn(process.execPath, [require.resolve('next/dist/bin/next'), 'start', '-p', String(PORT)], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  for (let i = 0; i < 600; i++) {
    // A route that does not touch the map's index, so that the first page view finds it cold.
    const ok = await fetch(`${BASE_URL}/places/v1/geojson?posts_per_page=1`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return server
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('the server did not start within 60 s')
}

const gzipSize = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/**
 * First-load JS of `/` from the build: the page's bootstrap chunks and its client entry (what its HTML loads), and
 * the chunks of the map that next/dynamic loads as soon as the page runs.
 */
function firstLoadFromBuild() {
  const next = path.join(root, '.next')
  const manifest = JSON.parse(readFileSync(path.join(next, 'server', 'app', 'page', 'build-manifest.json'), 'utf8')) as { rootMainFiles: string[] }
  // The client reference manifest is a script that sets this global.
  const global = globalThis as { __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }> }
  global.__RSC_MANIFEST = {}
  require(path.join(next, 'server', 'app', 'page_client-reference-manifest.js'))
  const entries = global.__RSC_MANIFEST['/page']?.entryJSFiles ?? {}
  const html = new Set([...manifest.rootMainFiles, ...(entries['[project]/app/layout'] ?? []), ...(entries['[project]/app/page'] ?? [])])
  const loadable = JSON.parse(readFileSync(path.join(next, 'server', 'app', 'page', 'react-loadable-manifest.json'), 'utf8')) as Record<
    string,
    { files: string[] }
  >
  const dynamic = new Set(Object.values(loadable).flatMap((entry) => entry.files.filter((file) => file.endsWith('.js') && !html.has(file))))
  const size = (files: Set<string>) => [...files].reduce((sum, file) => sum + gzipSize(readFileSync(path.join(next, file))), 0)
  return { htmlGzip: size(html), mapChunkGzip: size(dynamic), files: html.size + dynamic.size }
}

/** Opens the map in a new browser context (an empty cache); returns when its first view is drawn. */
async function openMap(browser: Browser, { trackJs = false } = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT })
  const page = await context.newPage()
  // Tiles cannot load here (no internet); fail them at once, as they fail on these machines anyway.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort('internetdisconnected'))
  const scripts = new Map<string, number>()
  if (trackJs) {
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script' && response.url().startsWith(BASE_URL)) {
        scripts.set(response.url(), gzipSize(await response.body().catch(() => Buffer.alloc(0))))
      }
    })
  }
  await page.goto(BASE_URL, { waitUntil: 'commit' })
  await page.waitForFunction(() => performance.getEntriesByName('places-map:ready').length > 0, null, { timeout: 60_000, polling: 16 })
  const timing = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
    const api = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => r.name.includes('/places/v1/geojson'))
    return {
      ready: performance.getEntriesByName('places-map:ready')[0]?.startTime ?? Number.NaN,
      html: nav?.responseEnd ?? Number.NaN,
      // The map's code has run when it asks for its first view's extent; the last answer is its first view's.
      firstRequest: api[0]?.startTime ?? 0,
      firstAnswer: api[0]?.responseEnd ?? 0,
      lastAnswer: Math.max(0, ...api.map((r) => r.responseEnd)),
      markers: document.querySelectorAll('.cluster-marker, .place-marker').length,
      places: Number(
        document
          .querySelector('.place-count')
          ?.textContent?.match(/^([\d,]+)/)?.[1]
          ?.replace(/,/g, '') ?? 0,
      ),
    }
  })
  return { context, page, timing, scripts }
}

/** Pans and zooms as a visitor would, recording every frame, long tasks, and how long each move took to show its view. */
type BenchState = { frames: number[]; longTasks: number[]; recording: boolean }

async function panAndZoom(page: Page) {
  const map = await page.locator('.places-map').boundingBox()
  if (!map) throw new Error('the map is not on the page')
  const centre = { x: map.x + map.width / 2, y: map.y + map.height / 2 }
  // As text: tsx names the functions of a callback (`__name(tick, "tick")`), which the page does not define.
  await page.evaluate(`{
    const state = { frames: [], longTasks: [], recording: true }
    window.__bench = state
    const tick = (t) => {
      state.frames.push(t)
      if (state.recording) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
    new PerformanceObserver((list) => state.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' })
  }`)
  const settle: number[] = []
  const waitForView = async () => {
    const started = Date.now()
    // The move's view is loaded 80 ms after the move ends; data-ready is false while it loads.
    await page.waitForTimeout(100)
    await page.waitForSelector('.map-app[data-ready="true"]', { timeout: 30_000 })
    settle.push(Date.now() - started + 0)
  }
  const drag = async (dx: number, dy: number) => {
    await page.mouse.move(centre.x, centre.y)
    await page.mouse.down()
    for (let step = 1; step <= 20; step++) await page.mouse.move(centre.x + (dx * step) / 20, centre.y + (dy * step) / 20)
    await page.mouse.up()
    await waitForView()
  }
  const wheel = async (deltaY: number) => {
    await page.mouse.move(centre.x + 40, centre.y - 30)
    await page.mouse.wheel(0, deltaY)
    await page.waitForTimeout(400) // Leaflet's wheel debounce and zoom animation
    await waitForView()
  }
  const started = Date.now()
  type Move = [dx: number, dy: number]
  for (const [dx, dy] of [
    [300, 0],
    [-200, 150],
    [0, -250],
  ] as Move[])
    await drag(dx, dy)
  for (let i = 0; i < 6; i++) await wheel(-120)
  for (const [dx, dy] of [
    [250, 100],
    [-400, 0],
    [100, -200],
    [200, 200],
  ] as Move[])
    await drag(dx, dy)
  for (let i = 0; i < 6; i++) await wheel(120)
  for (const [dx, dy] of [
    [-300, 0],
    [300, 100],
  ] as Move[])
    await drag(dx, dy)
  const seconds = (Date.now() - started) / 1000
  const { frames, longTasks } = await page.evaluate(() => {
    const state = (window as unknown as { __bench: BenchState }).__bench
    state.recording = false
    return state
  })
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!)
  return {
    moves: settle.length,
    seconds,
    fps: gaps.length / (gaps.reduce((a, b) => a + b, 0) / 1000),
    frameP50: percentile(gaps, 0.5),
    frameP95: percentile(gaps, 0.95),
    frameP99: percentile(gaps, 0.99),
    frameMax: percentile(gaps, 1),
    framesOver50ms: gaps.filter((gap) => gap > 50).length,
    frames: gaps.length,
    longTasks: longTasks.length,
    longestTask: Math.max(0, ...longTasks),
    viewP50: median(settle),
    viewMax: percentile(settle, 1),
  }
}

type Timing = Awaited<ReturnType<typeof openMap>>['timing']
const steps = (timing: Timing) => [timing.html, timing.firstRequest, timing.firstAnswer, timing.lastAnswer].map(Math.round)

prepareDatabase()
const build = firstLoadFromBuild()
log('starting next start…')
const server = await startServer()
const browser = await chromium.launch(browserOptions.launchOptions)
try {
  const cold = await openMap(browser, { trackJs: true })
  const browserJs = [...cold.scripts.values()].reduce((a, b) => a + b, 0)
  await cold.context.close()
  const warm: Timing[] = []
  for (let i = 0; i < RUNS; i++) {
    const run = await openMap(browser)
    warm.push(run.timing)
    await run.context.close()
  }
  const moving = await openMap(browser)
  const motion = await panAndZoom(moving.page)
  await moving.context.close()
  // A write (any: it bumps the data version) makes the next visit rebuild the index, on a server that is warm.
  const touch = path.join(dataDir, 'touch.geojson')
  writeFileSync(
    touch,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: null, properties: { title: `touch ${Date.now()}`, type: 'bench-touch' } }],
    }),
  )
  places('import', touch)
  const afterWrite = await openMap(browser)
  await afterWrite.context.close()

  const result = {
    places: cold.timing.places,
    firstLoadJsGzip: {
      fromBuild: build.htmlGzip + build.mapChunkGzip,
      pageHtml: build.htmlGzip,
      mapChunk: build.mapChunkGzip,
      browser: browserJs,
      browserFiles: cold.scripts.size,
    },
    readyColdMs: Math.round(cold.timing.ready),
    readyWarmMsMedian: Math.round(median(warm.map((t) => t.ready))),
    readyWarmMs: warm.map((t) => Math.round(t.ready)),
    readyAfterWriteMs: Math.round(afterWrite.timing.ready),
    // Where the time goes: HTML, the map's code running, its first answer (the extent), the first view's answers.
    coldSteps: steps(cold.timing),
    warmSteps: (['html', 'firstRequest', 'firstAnswer', 'lastAnswer'] as const).map((step) => Math.round(median(warm.map((t) => t[step])))),
    afterWriteSteps: steps(afterWrite.timing),
    markers: warm[0]?.markers ?? 0,
    motion: Object.fromEntries(Object.entries(motion).map(([k, v]) => [k, Math.round(v * 10) / 10])),
  }
  console.log(`
places on the map                       ${result.places.toLocaleString('en')}
first-load JS of / (gzip -9)            ${kb(result.firstLoadJsGzip.fromBuild)} from the build (${kb(build.htmlGzip)} the page's HTML loads + ${kb(build.mapChunkGzip)} the map chunk)
                                        ${kb(browserJs)} fetched by the browser until the map was drawn (${cold.scripts.size} files)
first view drawn, warm                  ${result.readyWarmMsMedian} ms median of ${RUNS} (${result.readyWarmMs.join(', ')})
first view drawn, after a write         ${result.readyAfterWriteMs} ms (the index of places rebuilt on this visit)
first view drawn, server just started   ${result.readyColdMs} ms (the server's first page, and the index built)
  ms to HTML, map code running, extent answered, view answered:
    warm ${result.warmSteps.join(', ')}; after a write ${result.afterWriteSteps.join(', ')}; just started ${result.coldSteps.join(', ')}
markers drawn in the first view         ${result.markers}
pan/zoom: ${motion.moves} moves in ${motion.seconds.toFixed(1)} s   ${motion.fps.toFixed(1)} fps; frame p50 ${motion.frameP50.toFixed(1)} ms, p95 ${motion.frameP95.toFixed(1)}, p99 ${motion.frameP99.toFixed(1)}, max ${motion.frameMax.toFixed(1)}; ${motion.framesOver50ms} of ${motion.frames} frames over 50 ms
                                        ${motion.longTasks} long tasks (longest ${motion.longestTask.toFixed(0)} ms); a move's view shown after ${motion.viewP50} ms median, ${motion.viewMax} ms max`)
  console.log(JSON.stringify(result))
} finally {
  await browser.close()
  server.kill('SIGTERM')
}
