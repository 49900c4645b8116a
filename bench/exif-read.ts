// Part of `npm run bench`: how long reading the GPS of each photo of the corpus (test/fixtures/exif) takes, as an
// upload does it (lib/media/exif-gps.ts readGps on the file's bytes, once). Prints JSON on stdout.
//
//   node --conditions=react-server --import tsx bench/exif-read.ts [ROUNDS]
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { readGps } from '../lib/media/exif-gps'
import { median } from './stats.mts'

const rounds = Number(process.argv[2] ?? 200)
const dir = path.join(import.meta.dirname, '..', 'test', 'fixtures', 'exif')

const photos = readdirSync(dir)
  .filter((name) => !/\.(md|json)$/.test(name))
  .sort()
const results = photos.map((name) => {
  const bytes = readFileSync(path.join(dir, name))
  for (let i = 0; i < 20; i++) readGps(bytes) // warm-up: the JIT, not the file
  const times: number[] = []
  let gps = null
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    gps = readGps(bytes)
    times.push(performance.now() - started)
  }
  return { name, bytes: bytes.byteLength, gps: gps !== null, medianMs: median(times), maxMs: Math.max(...times) }
})
process.stdout.write(JSON.stringify(results))
