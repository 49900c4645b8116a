// The world layer's outlines (app/_components/world-layer.tsx), decoded and projected in a worker (world*.worker.ts,
// one a scale): the page's own thread only draws them. Natural Earth's countries (world-atlas, public domain) become
// rings on Web Mercator's unit square, x and y alternating, each with its box; the arrays are handed over, not copied.
import { feature } from 'topojson-client'
import { mercatorX, mercatorY } from '@/lib/geo/web-mercator'

export type Ring = { points: Float64Array; minX: number; minY: number; maxX: number; maxY: number }

/**
 * A ring's points, x and y alternating. A ring that crosses the antimeridian (Fiji's, Russia's) goes on past the
 * square's edge rather than jumping back across the world, which would draw a line over it; one that goes round a pole
 * (Antarctica's) does jump, along the square's bottom edge, where nothing shows.
 */
function project(ring: GeoJSON.Position[]): Float64Array {
  const points = new Float64Array(ring.length * 2)
  let shift = 0
  ring.forEach(([longitude, latitude], i) => {
    let x = mercatorX(longitude!) + shift
    if (i > 0 && Math.abs(x - points[2 * i - 2]!) > 0.5) {
      const jump = Math.round(points[2 * i - 2]! - x)
      shift += jump
      x += jump
    }
    points[2 * i] = x
    points[2 * i + 1] = mercatorY(latitude!)
  })
  return shift === 0 ? points : new Float64Array(ring.flatMap(([longitude, latitude]) => [mercatorX(longitude!), mercatorY(latitude!)]))
}

/** Sends the rings of world-atlas's `countries` to the page that started this worker. */
export function postRings(topology: unknown): void {
  const world = topology as Parameters<typeof feature>[0]
  const countries = feature(world, world.objects.countries as Parameters<typeof feature>[1]) as unknown as GeoJSON.FeatureCollection<
    GeoJSON.Polygon | GeoJSON.MultiPolygon
  >
  const rings: Ring[] = []
  for (const { geometry } of countries.features) {
    for (const ring of (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates).flat()) {
      const points = project(ring)
      let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
      for (let i = 0; i < points.length; i += 2) {
        ;[minX, maxX] = [Math.min(minX, points[i]!), Math.max(maxX, points[i]!)]
        ;[minY, maxY] = [Math.min(minY, points[i + 1]!), Math.max(maxY, points[i + 1]!)]
      }
      rings.push({ points, minX, minY, maxX, maxY })
    }
  }
  postMessage(rings, { transfer: rings.map((ring) => ring.points.buffer) })
}
