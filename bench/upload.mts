#!/usr/bin/env node
// `npm run bench:upload`: what storing an uploaded photo costs the server, on real photos of the corpus
// (test/fixtures/exif): the time the upload takes (lib/media/storage.ts storeImage, what POST /wp/v2/media and
// `places media import` run: the bytes streamed to disk, their type sniffed, the sizes made, GPS read, the
// public copy stripped) and the longest stall of the event loop meanwhile (perf_hooks.monitorEventLoopDelay): how
// long every other request to the same server (the map, the API) waited at worst. BENCHMARKS.md keeps the figures.
//
//   npm run bench:upload -- [--runs 5] [--storage disk|s3] [FILE ...]
//
// Each file is stored once not counted (the first HEIC decode starts libheif), then --runs times; the figures are
// the median and the worst over the runs. Uploads go to a temporary folder, removed at the end. The whole as JSON on
// the last line. Each stored photo is then served once, timed: its public copy's size asked and every byte read, as
// GET /uploads/… does after its database lookup. `--storage s3` keeps the files in a bucket (MEDIA_STORAGE=s3) of
// s3rver, an S3-compatible server in Node on this machine, run in a process of its own: the figures are the AWS
// SDK's and the app's cost over HTTP on localhost, not a real service's latency.
import { spawn } from 'node:child_process'
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { median } from './stats.mts'
import { s3rverSettings } from '../test/support/s3rver-settings.ts'

const root = path.resolve(import.meta.dirname, '..')
const corpus = path.join(root, 'test', 'fixtures', 'exif')
const { values: opts, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, storage: { type: 'string', default: 'disk' } },
  allowPositionals: true,
})
const RUNS = Number(opts.runs)
if (!Number.isInteger(RUNS) || RUNS < 1 || (opts.storage !== 'disk' && opts.storage !== 's3')) {
  console.error('usage: npm run bench:upload -- [--runs N] [--storage disk|s3] [FILE ...]')
  process.exit(2)
}
// An iPhone's 12 MP HEIC (3024×4032, the kind that blocked the server for seconds), a small HEIC, and a 12 MP JPEG
// for comparison: sharp decodes JPEG on libuv's threads, off the event loop.
const files =
  positionals.length > 0 ? positionals : ['mei_Issue 263 dotnet.heic', 'epy_spring_1440x960.heic', 'mei_Apple iPhone 4.jpg'].map((f) => path.join(corpus, f))

const uploads = mkdtempSync(path.join(os.tmpdir(), 'places-bench-upload-'))
process.env.UPLOADS_DIR = uploads
const S3_PORT = 4569
const s3rver =
  opts.storage === 's3'
    ? spawn(
        process.execPath,
        [
          path.join(root, 'node_modules', 's3rver', 'bin', 's3rver.js'),
          '-d',
          path.join(uploads, 's3'),
          '-a',
          '127.0.0.1',
          '-p',
          String(S3_PORT),
          '-s',
          '--configure-bucket',
          'places',
        ],
        { stdio: 'ignore' },
      )
    : null
if (s3rver) {
  Object.assign(process.env, s3rverSettings(S3_PORT))
  for (let i = 0; ; i++) {
    if (
      await fetch(`http://127.0.0.1:${S3_PORT}/places`).then(
        () => true,
        () => false,
      )
    )
      break
    if (i === 100) throw new Error('s3rver did not start')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
const { storeImage } = await import('../lib/media/storage.ts')
const { mediaStore } = await import('../lib/media/store.ts')
const { endExiftool } = await import('../lib/media/strip-location.ts')
const pool = await import('../lib/media/heic-pool.ts').catch(() => null) // absent before the decode moved to workers

const round = (n: number) => Math.round(n * 10) / 10

async function storeOnce(file: string): Promise<{ uploadMs: number; stallMs: number; serveMs: number }> {
  // 1 ms resolution: the histogram's max is the longest the loop could not run a 1 ms timer on time.
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const started = performance.now()
  const image = await storeImage(path.basename(file), createReadStream(file))
  const uploadMs = performance.now() - started
  delay.disable()
  const serving = performance.now()
  const served = await mediaStore().stat('public', image.filePath)
  if (!served) throw new Error(`no public copy of ${file}`)
  const reader = (await served.open()).getReader()
  while (!(await reader.read()).done);
  const serveMs = performance.now() - serving
  await image.discard()
  return { uploadMs, stallMs: delay.max / 1e6, serveMs }
}

const results = []
try {
  for (const file of files) {
    await storeOnce(file)
    const runs = []
    for (let i = 0; i < RUNS; i++) runs.push(await storeOnce(file))
    const result = {
      file: path.basename(file),
      bytes: statSync(file).size,
      uploadMsMedian: round(median(runs.map((r) => r.uploadMs))),
      uploadMsMax: round(Math.max(...runs.map((r) => r.uploadMs))),
      stallMsMedian: round(median(runs.map((r) => r.stallMs))),
      stallMsMax: round(Math.max(...runs.map((r) => r.stallMs))),
      serveMsMedian: round(median(runs.map((r) => r.serveMs))),
      runs,
    }
    results.push(result)
    console.error(
      `${result.file} (${Math.round(result.bytes / 1024)} KB): upload ${result.uploadMsMedian} ms median (${result.uploadMsMax} worst), ` +
        `longest event-loop stall ${result.stallMsMedian} ms median (${result.stallMsMax} worst), served in ${result.serveMsMedian} ms`,
    )
  }
} finally {
  await endExiftool()
  await pool?.closeHeicPool()
  s3rver?.kill()
  rmSync(uploads, { recursive: true, force: true })
}
const [load1] = os.loadavg()
console.error(`load average (1 min) at the end: ${load1?.toFixed(2)}; ${os.availableParallelism()} cores`)
console.log(JSON.stringify({ node: process.version, runs: RUNS, storage: opts.storage, results }))
