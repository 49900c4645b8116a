#!/usr/bin/env node
// The map's index in a node process, without a server or a database (issue 15; BENCHMARKS.md):
//
//   npm run bench:index -- [N]        (default 1,000,000)
//
// The index of the public places of bench/generate.mts's N places (ids as `places import` gives them: 1, 2… in the
// file's order), then: each map view of bench/writes.mts (the mean of 300), and its 40 moves back to back (the same
// places as the server bench's, by 0.001° of latitude, north and south in turn), each update (withChanges) and the
// world view after it; then 40 new posts, each deleted after (dated among the others, then dated now); then time
// intervals (after and before): each one's index made from the whole (rangeOf, the mean of 20) and the world view of it
// (the mean of 300); then the timeline's counts by year of the world and of three views (datesIn and timelineOf, the
// mean of 20). Each view is also timed with its clusters' categories counted (the map's `_embed`), each place's first
// category that of `places import` (the first of its paths to be made, in the tree's order).
import { mapItemsIn } from '../lib/places/map-index/clusters.ts'
import { datesIn, timelineOf } from '../lib/places/map-index/periods.ts'
import { buildPlaceIndex, rangeOf, ranksBetween, withChanges } from '../lib/places/map-index/place-index.ts'
import type { PlacePoint } from '../lib/places/query.ts'
import { CATEGORY_PATHS, makeFeatures } from './generate.mts'
import { shuffle } from './prng.ts'
import { percentile, round2 } from './stats.mts'
import { MAP_VIEWS, moveDegrees, MOVES, PUBLIC_IDS_SEED } from './writes.mts'

const n = Number(process.argv[2] ?? 1_000_000)
if (!Number.isInteger(n) || n < 1) {
  console.error('Usage: npm run bench:index -- [N]')
  process.exit(2)
}

const points: PlacePoint[] = []
let id = 0
for (const { feature, isPublic } of makeFeatures(n)) {
  id++
  if (!isPublic) continue
  const [longitude, latitude] = feature.geometry!.coordinates
  const category = Math.min(...feature.properties.categories.map((path) => 1 + CATEGORY_PATHS.indexOf(path)))
  points.push([id, latitude!, longitude!, Date.parse(feature.properties.date), category])
}
// In the order the server bench moves them: its public ids, in the file's order, shuffled.
const moving = shuffle([...points], PUBLIC_IDS_SEED)
// The collection's order: newest first, ties by id descending.
points.sort((a, b) => b[3] - a[3] || b[0] - a[0])

const ms = (since: number) => performance.now() - since
const percentileMs = (values: number[], p: number) => round2(percentile(values, p))

let started = performance.now()
let index = buildPlaceIndex(points)
console.log(`${index.size} public places of ${n}: index built in ${Math.round(ms(started))} ms`)

for (const { zoom, bbox } of MAP_VIEWS) {
  const timed = (withCategories: boolean) => {
    for (let i = 0; i < 30; i++) mapItemsIn(index, bbox, zoom, withCategories)
    started = performance.now()
    for (let i = 0; i < 300; i++) mapItemsIn(index, bbox, zoom, withCategories)
    return round2(ms(started) / 300)
  }
  console.log(`  view zoom ${zoom}${bbox ? ` bbox ${bbox.join(',')}` : ''}: ${timed(false)} ms, with its categories ${timed(true)} ms`)
}

const [updates, views] = [[] as number[], [] as number[]]
for (let i = 0; i < MOVES; i++) {
  const [id, latitude, longitude, date] = moving[i % moving.length]!
  const moved: PlacePoint = [id, latitude + moveDegrees(i), longitude, date]
  started = performance.now()
  index = withChanges(index, new Set([id]), [moved])
  updates.push(ms(started))
  mapItemsIn(index, undefined, 2)
  views.push(ms(started))
}
console.log(
  `  ${MOVES} moves back to back: update p50 ${percentileMs(updates, 0.5)} ms, p90 ${percentileMs(updates, 0.9)} ms; ` +
    `update and the world view after it p50 ${percentileMs(views, 0.5)} ms, p90 ${percentileMs(views, 0.9)} ms`,
)

// A new post beside another, then deleted: dated as the server bench's writes make it (its place 0.01° off, the
// other's date: among older places), or now, the newest (a post written today, or `places import` of a post without a
// date, the server bench's small import).
for (const dated of ['with the date of another', 'dated now'] as const) {
  const [added, deleted] = [[] as number[], [] as number[]]
  for (let i = 0; i < MOVES; i++) {
    const [, latitude, longitude, date] = moving[(MOVES + i) % moving.length]!
    const newId = n + 1 + i
    started = performance.now()
    index = withChanges(index, new Set([newId]), [[newId, latitude + 0.01, longitude + 0.01, dated === 'dated now' ? Date.now() : date]])
    added.push(ms(started))
    started = performance.now()
    index = withChanges(index, new Set([newId]), [])
    deleted.push(ms(started))
  }
  console.log(
    `  ${MOVES} new posts ${dated}, each deleted after: update p50 ${percentileMs(added, 0.5)} ms, p90 ${percentileMs(added, 0.9)} ms; ` +
      `deletion p50 ${percentileMs(deleted, 0.5)} ms, p90 ${percentileMs(deleted, 0.9)} ms`,
  )
}

const DAY = 86_400_000
for (const [name, first, last] of [
  ['the year 2024', '2024-01-01', '2024-12-31'],
  ['June 2024', '2024-06-01', '2024-06-30'],
  ['15 June 2024', '2024-06-15', '2024-06-15'],
  ['2016 to 2024', '2016-01-01', '2024-12-31'],
] as const) {
  const ranks = ranksBetween(index, Date.parse(first), Date.parse(last) + DAY - 1)
  for (let i = 0; i < 5; i++) rangeOf(index, ranks)
  started = performance.now()
  for (let i = 0; i < 20; i++) rangeOf(index, ranks)
  const made = ms(started) / 20
  const interval = rangeOf(index, ranks)
  for (let i = 0; i < 30; i++) mapItemsIn(interval, undefined, 2)
  started = performance.now()
  for (let i = 0; i < 300; i++) mapItemsIn(interval, undefined, 2)
  console.log(`  interval ${name}, ${interval.size} places: its index made in ${round2(made)} ms; the world view zoom 2 of it ${round2(ms(started) / 300)} ms`)
}

for (const { zoom, bbox } of MAP_VIEWS) {
  const counts = () => timelineOf(datesIn(index, bbox), 'Europe/Paris')
  for (let i = 0; i < 5; i++) counts()
  started = performance.now()
  for (let i = 0; i < 20; i++) counts()
  const { unit, total, periods } = counts()
  console.log(
    `  timeline of view zoom ${zoom}${bbox ? ` bbox ${bbox.join(',')}` : ''}: ${total} places, ${periods.length} ${unit}s in ${round2(ms(started) / 20)} ms`,
  )
}
