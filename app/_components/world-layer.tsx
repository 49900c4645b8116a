'use client'
import { GridLayer, type Coords, type DoneCallback } from 'leaflet'
import { useEffect, useState } from 'react'
import { useMap } from 'react-leaflet'
import type { Ring } from './world-rings'

// The map's own basemap: Natural Earth's countries (world-atlas, public domain) drawn in a pane under the tiles, with
// the sea as the map's background colour (globals.css, .places-map). With MAP_TILE_URL=none it is the whole basemap
// and no third party is asked for anything; with tiles it shows until they load, and stays where they fail.
//
// Drawn as canvas tiles from outlines a worker decodes and projects once, not as Leaflet polygons: 177 polygons cost
// a phone's main thread a third of a second to build, where a view's tiles take a few milliseconds (BENCHMARKS.md,
// "Pages").

const PANE = 'world'
const NATURAL_EARTH = '<a href="https://www.naturalearthdata.com/">Natural Earth</a>'
const LAND = '#eef0e6'
const BORDER = '#9aa58f'

/** The outlines at each scale, the zoom from which they are drawn, and their worker: its own file, cached apart. */
const SCALES = [
  { fromZoom: 0, worker: () => new Worker(new URL('./world.worker.ts', import.meta.url), { type: 'module' }) },
  { fromZoom: 4, worker: () => new Worker(new URL('./world-50m.worker.ts', import.meta.url), { type: 'module' }) },
  { fromZoom: 6, worker: () => new Worker(new URL('./world-10m.worker.ts', import.meta.url), { type: 'module' }) },
]

function loadWorld(scale: number): Promise<Ring[]> {
  return new Promise((resolve, reject) => {
    const worker = SCALES[scale]!.worker()
    worker.onmessage = (event: MessageEvent<Ring[]>) => {
      resolve(event.data)
      worker.terminate()
    }
    worker.onerror = (event) => {
      reject(new Error(`the world layer could not be made: ${event.message}`))
      worker.terminate()
    }
  })
}

/**
 * Each tile draws the rings that cross it, holes by the even-odd rule (a country's enclaves are its holes), a point
 * only where it is a pixel or more from the last drawn. Tiles are drawn one task each, so that a view's dozen never
 * hold the page's thread at once.
 */
class WorldTiles extends GridLayer {
  /** By scale, from the coarsest: the rings loaded so far. */
  readonly scales: (Ring[] | undefined)[]

  constructor(rings: Ring[]) {
    super({ pane: PANE, attribution: NATURAL_EARTH })
    this.scales = [rings]
  }

  /** The finest loaded outlines for a zoom. */
  private ringsAt(zoom: number): Ring[] {
    for (let scale = SCALES.length - 1; scale > 0; scale--) if (zoom >= SCALES[scale]!.fromZoom && this.scales[scale]) return this.scales[scale]!
    return this.scales[0]!
  }

  override createTile(coords: Coords, done: DoneCallback): HTMLElement {
    const tile = document.createElement('canvas')
    setTimeout(() => {
      this.draw(tile, coords)
      done(undefined, tile)
    })
    return tile
  }

  private draw(tile: HTMLCanvasElement, coords: Coords): void {
    const size = this.getTileSize()
    const ratio = window.devicePixelRatio || 1
    tile.width = size.x * ratio
    tile.height = size.y * ratio
    const context = tile.getContext('2d')
    if (!context) return
    const tiles = 2 ** coords.z // per side of the unit square; Leaflet hands over coordinates wrapped into it
    const [left, top, span] = [coords.x / tiles, coords.y / tiles, 1 / tiles]
    const margin = span / size.x // a pixel, for the border's width
    const scale = tiles * size.x * ratio
    context.beginPath()
    // A ring past the square's edge (world.worker.ts) shows on this tile once moved a world's width.
    for (const shift of [-1, 0, 1]) {
      const [west, east] = [left + shift, left + span + shift]
      for (const { points, minX, minY, maxX, maxY } of this.ringsAt(coords.z)) {
        if (maxX < west - margin || minX > east + margin || maxY < top - margin || minY > top + span + margin) continue
        let [x, y] = [(points[0]! - west) * scale, (points[1]! - top) * scale]
        context.moveTo(x, y)
        for (let i = 2; i < points.length; i += 2) {
          const [nextX, nextY] = [(points[i]! - west) * scale, (points[i + 1]! - top) * scale]
          if (Math.abs(nextX - x) < ratio && Math.abs(nextY - y) < ratio) continue
          ;[x, y] = [nextX, nextY]
          context.lineTo(x, y)
        }
        context.closePath()
      }
    }
    context.fillStyle = LAND
    context.fill('evenodd')
    context.strokeStyle = BORDER
    context.lineWidth = 0.8 * ratio
    context.stroke()
  }
}

/**
 * The world layer; `detailed` where nothing covers it (no tiles, or none loaded): then a view closer than the world's
 * loads the finer outlines (1:50 million from zoom 4, 1:10 million from 6, about 230 KB and 920 KB gzipped), once.
 */
export function WorldLayer({ detailed }: { detailed: boolean }) {
  const map = useMap()
  const [layer, setLayer] = useState<WorldTiles>()
  useEffect(() => {
    let cancelled = false
    if (!map.getPane(PANE)) map.createPane(PANE).style.zIndex = '150' // under the tiles (200)
    let made: WorldTiles | undefined
    loadWorld(0)
      .then((rings) => {
        if (cancelled) return
        made = new WorldTiles(rings).addTo(map)
        setLayer(made)
        map.getContainer().dataset.world = 'ready'
      })
      .catch((error: unknown) => console.error(error))
    return () => {
      cancelled = true
      made?.remove()
    }
  }, [map])
  useEffect(() => {
    if (!layer || !detailed) return
    const loading = new Set<number>()
    // The scale the view's zoom draws, once: a page opened at zoom 10 fetches 1:10m alone, not 1:50m first.
    const load = () => {
      const scale = SCALES.findLastIndex(({ fromZoom }) => map.getZoom() >= fromZoom)
      if (scale === 0 || layer.scales[scale] || loading.has(scale)) return
      loading.add(scale)
      loadWorld(scale)
        .then((rings) => {
          layer.scales[scale] = rings
          layer.redraw()
          map.getContainer().dataset.worldScale = String(Math.max(scale, Number(map.getContainer().dataset.worldScale ?? 0)))
        })
        .catch((error: unknown) => console.error(error))
    }
    load()
    map.on('zoomend', load)
    return () => void map.off('zoomend', load)
  }, [map, layer, detailed])
  return null
}
