#!/usr/bin/env node
// `npm run bench:labels`: what the map's own town names (lib/geo/labels.ts) cost the server: reading the gazetteer
// and ranking its towns (once per process), placing each zoom's names for the whole world (once per zoom, the first
// time a tile of it is asked for) with the longest stall of the event loop meanwhile (how long any other request
// waited at worst), and a tile's answer once placed. BENCHMARKS.md keeps the figures; the whole as JSON on the last line.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { getGazetteer } from '../lib/geo/gazetteer'
import { LABEL_TILE_PX, labelTilesAt, MAX_LABEL_ZOOM, MIN_LABEL_ZOOM } from '../lib/geo/label-tiles'
import { placeLabels, rankTowns, townLabels } from '../lib/geo/labels'
import { mercatorX, mercatorY } from '../lib/geo/web-mercator'
import { median } from './stats.mts'

// A CommonJS module (the gazetteer's JSON import needs it run so), hence main() rather than top-level await.
const ms = (started: number) => Math.round((performance.now() - started) * 10) / 10
async function main(): Promise<void> {
  let started = performance.now()
  const { cities } = await getGazetteer()
  const gazetteerMs = ms(started)
  started = performance.now()
  const towns = rankTowns(cities)
  const rankMs = ms(started)
  console.log(`gazetteer read ${gazetteerMs} ms; ${towns.ranked.length} towns ranked ${rankMs} ms`)
  const zooms = []
  for (let zoom = MIN_LABEL_ZOOM; zoom <= MAX_LABEL_ZOOM; zoom++) {
    const stalls = monitorEventLoopDelay({ resolution: 5 })
    stalls.enable()
    started = performance.now()
    const anchors = await placeLabels(towns, zoom)
    const placeMs = ms(started)
    stalls.disable()
    await townLabels(zoom, 0, 0) // this zoom placed in townLabels' own cache, untimed
    // A view of 1280 × 800 over Paris: the tiles of names the browser asks for (town-labels.tsx), each answer timed.
    const [x, y] = [mercatorX(2.3522) * 256 * 2 ** zoom, mercatorY(48.8566) * 256 * 2 ** zoom]
    const times: number[] = []
    let names = 0
    for (let column = Math.floor((x - 640) / LABEL_TILE_PX); column <= Math.floor((x + 640) / LABEL_TILE_PX); column++) {
      for (let row = Math.floor((y - 400) / LABEL_TILE_PX); row <= Math.floor((y + 400) / LABEL_TILE_PX); row++) {
        const tiles = labelTilesAt(zoom)
        if (row < 0 || row >= tiles) continue
        const tileStarted = performance.now()
        names += (await townLabels(zoom, ((column % tiles) + tiles) % tiles, row)).length
        times.push(performance.now() - tileStarted)
      }
    }
    const named = anchors.filter((anchor) => anchor !== 255).length
    const figures = {
      zoom,
      named,
      placeMs,
      longestStallMs: Math.round(stalls.max / 1e5) / 10,
      tileMs: Math.round(median(times) * 100) / 100,
      namesInView: names,
    }
    zooms.push(figures)
    console.log(
      `zoom ${zoom}: ${named} names in the world placed in ${placeMs} ms (longest stall ${figures.longestStallMs} ms); a tile of names ${figures.tileMs} ms, ${names} names in the tiles a view over Paris asks for`,
    )
  }
  console.log(JSON.stringify({ gazetteerMs, rankMs, zooms }))
}

void main()
