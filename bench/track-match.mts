#!/usr/bin/env node
// `npm run bench:track`: what placing photos by a track costs (docs/trips.md): reading a GPX file of 100,000 points
// (a day's walk logged every second), making its timed line, placing 10,000 photos on it, and finding a camera's
// clock from 100 photos with GPS; then what drawing it for the public costs (lib/trips/public-route.ts: the trip's page
// and the list, with and without privacy zones across it). Node alone, no database: the command's other cost is
// reading the photos' files.
// BENCHMARKS.md keeps the figures; the whole as JSON on the last line.
//
//   npm run bench:track -- [--points 100000] [--photos 10000] [--runs 5]
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { readGpxTracks } from '../lib/places/formats/xml-formats'
import { placeAt, timeAtPoint } from '../lib/trips/match'
import { DETAIL_TOLERANCE_M, OVERVIEW_TOLERANCE_M, publicLines, type RouteZone } from '../lib/trips/public-route'
import { packTrack, timedLine, unpackTrack, type Track } from '../lib/trips/track'
import { prng } from './prng.ts'
import { median } from './stats.mts'

const { values } = parseArgs({
  options: { points: { type: 'string', default: '100000' }, photos: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } },
})
const POINTS = Number(values.points)
const PHOTOS = Number(values.photos)
const RUNS = Number(values.runs)
const REFERENCES = 100

/** A walk of `count` points a second apart from Lake Cerknica, turning a little at each step, as GPX 1.1. */
function walkGpx(count: number): string {
  const random = prng(54)
  let [latitude, longitude, heading] = [45.7722, 14.3577, 0]
  const start = Date.parse('2010-08-05T06:00:00Z')
  const points: string[] = []
  for (let i = 0; i < count; i++) {
    heading += (random() - 0.5) * 0.3
    latitude += (Math.cos(heading) * 1.3) / 111_195
    longitude += (Math.sin(heading) * 1.3) / (111_195 * Math.cos((latitude * Math.PI) / 180))
    const time = new Date(start + i * 1000).toISOString().replace('.000Z', 'Z')
    points.push(
      `<trkpt lat="${latitude.toFixed(7)}" lon="${longitude.toFixed(7)}"><ele>${(550 + 30 * Math.sin(i / 900)).toFixed(1)}</ele><time>${time}</time></trkpt>`,
    )
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="bench"><trk><name>Walk</name><trkseg>\n${points.join('\n')}\n</trkseg></trk></gpx>\n`
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'places-bench-track-'))
const file = path.join(dir, 'walk.gpx')
const gpx = walkGpx(POINTS)
writeFileSync(file, gpx)
const ms = (started: number) => performance.now() - started
const runs = {
  readMs: [] as number[],
  lineMs: [] as number[],
  placeMs: [] as number[],
  clockMs: [] as number[],
  unpackMs: [] as number[],
  routeMs: [] as number[],
  routeZonesMs: [] as number[],
}
let placed = 0
let drawn = { detailPoints: 0, overviewPoints: 0, detailKB: 0, overviewKB: 0, storedMB: 0 }
/** Three zones of 500 m on the walk: at a quarter, half and three quarters of it. */
const zonesOn = (track: Track): RouteZone[] =>
  [0.25, 0.5, 0.75].map((at) => {
    const i = Math.floor(at * track.latitudes.length)
    return { latitude: track.latitudes[i]!, longitude: track.longitudes[i]!, radiusMetres: 500 }
  })
for (let run = 0; run < RUNS; run++) {
  let started = performance.now()
  const tracks = await readGpxTracks(createReadStream(file))
  runs.readMs.push(ms(started))
  started = performance.now()
  const line = timedLine(tracks)
  runs.lineMs.push(ms(started))
  const random = prng(run)
  const [first, last] = [line.times[0]!, line.times.at(-1)!]
  const times = Array.from({ length: PHOTOS }, () => first + random() * (last - first))
  started = performance.now()
  placed = 0
  for (const time of times) if (placeAt(line, time).placed) placed++
  runs.placeMs.push(ms(started))
  // Photos with GPS at points of the walk, their camera 1 h 12 min behind.
  const references = Array.from({ length: REFERENCES }, () => Math.floor(random() * line.times.length))
  started = performance.now()
  for (const index of references) timeAtPoint(line, line.latitudes[index]!, line.longitudes[index]!, line.times[index]! - 72 * 60_000)
  runs.clockMs.push(ms(started))
  // What a trip keeps and draws: the track packed and read back, its route at both tolerances.
  const packed = packTrack(tracks[0]!)
  started = performance.now()
  const track = unpackTrack('Walk', packed)
  runs.unpackMs.push(ms(started))
  started = performance.now()
  const detail = publicLines([track], 'exact', [], DETAIL_TOLERANCE_M)
  const overview = publicLines([track], 'exact', [], OVERVIEW_TOLERANCE_M)
  runs.routeMs.push(ms(started))
  const zones = zonesOn(track)
  started = performance.now()
  publicLines([track], 'exact', zones, DETAIL_TOLERANCE_M)
  publicLines([track], 'exact', zones, OVERVIEW_TOLERANCE_M)
  runs.routeZonesMs.push(ms(started))
  const points = (lines: unknown[][]) => lines.reduce((sum, line) => sum + line.length, 0)
  drawn = {
    detailPoints: points(detail),
    overviewPoints: points(overview),
    detailKB: Math.round(JSON.stringify(detail).length / 1000),
    overviewKB: Math.round(JSON.stringify(overview).length / 1000),
    storedMB: Math.round(packed.length / 1e5) / 10,
  }
}
rmSync(dir, { recursive: true, force: true })
const round = (value: number) => Math.round(value * 10) / 10
const result = {
  points: POINTS,
  gpxMB: round(gpx.length / 1e6),
  photos: PHOTOS,
  placed,
  references: REFERENCES,
  readMs: round(median(runs.readMs)),
  lineMs: round(median(runs.lineMs)),
  placeMs: round(median(runs.placeMs)),
  clockMs: round(median(runs.clockMs)),
  unpackMs: round(median(runs.unpackMs)),
  routeMs: round(median(runs.routeMs)),
  routeZonesMs: round(median(runs.routeZonesMs)),
  ...drawn,
}
console.log(`GPX of ${POINTS} points (${result.gpxMB} MB) read in ${result.readMs} ms; its timed line made in ${result.lineMs} ms`)
console.log(`${PHOTOS} photos placed in ${result.placeMs} ms (${placed} placed); a camera's clock from ${REFERENCES} photos with GPS in ${result.clockMs} ms`)
console.log(
  `Kept whole: ${result.storedMB} MB, read back in ${result.unpackMs} ms; its public route drawn in ${result.routeMs} ms (${result.routeZonesMs} ms across 3 zones):`,
)
console.log(
  `${result.detailPoints} points within ${DETAIL_TOLERANCE_M} m (${result.detailKB} kB of JSON), ${result.overviewPoints} within ${OVERVIEW_TOLERANCE_M} m (${result.overviewKB} kB)`,
)
console.log(`(median of ${RUNS} runs)`)
console.log(JSON.stringify(result))
