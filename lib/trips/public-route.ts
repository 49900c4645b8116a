import simplify from 'simplify-js'
import { cellBounds, cellCentre } from '../geo/cell'
import { distanceKm, EARTH_RADIUS_KM, wrapLongitude } from '../geo/precision'
import type { Track } from './track'

// What the public may see of a trip's tracks, as lines to draw (docs/privacy.md, "Trips"); lib/places/visibility.ts
// applies it. A track passes through home, so every privacy zone cuts it, whatever the zone's level:
// - a point is withheld when its ~1 km cell of the approximate grid (lib/geo/cell.ts) touches a zone, so the line ends
//   on the grid's edge, not on the zone's circle: ends seen on many trips tell where the zone is no better than the
//   approximate level tells where a post is;
// - a line is also broken where a step between two kept points would pass within the zone (a sparse track, a
//   planned route): nothing is drawn across a zone, not even a straight line;
// - simplified lines stay within their tolerance of what they simplify, so the tests above keep that much more away.
// At the approximate level each point is its cell's centre, as a post's point is. A line is cut where it crosses the
// antimeridian, as RFC 7946 asks.

/** A line of [longitude, latitude] positions, GeoJSON's order. */
export type Line = [number, number][]

export type RouteZone = { latitude: number; longitude: number; radiusMetres: number }

/** How far a drawn line may stray from the track: the trip's own map at street level, and small maps of many trips. */
export const DETAIL_TOLERANCE_M = 5
export const OVERVIEW_TOLERANCE_M = 100

const M_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM * 1000
const CELL_DIAGONAL_M = 2_000

/** Whether the cell a point lies in touches the zone: its nearest point to the zone's centre lies within the radius. */
function cellTouches(zone: RouteZone, latitude: number, longitude: number): boolean {
  if (Math.abs(latitude - zone.latitude) * M_PER_DEGREE > zone.radiusMetres + CELL_DIAGONAL_M) return false
  const { south, west, north, east } = cellBounds(latitude, longitude)
  const fromWest = wrapLongitude(zone.longitude - west)
  const nearest = {
    latitude: Math.min(north, Math.max(south, zone.latitude)),
    longitude: fromWest >= 0 && fromWest <= east - west ? zone.longitude : Math.abs(fromWest) < Math.abs(wrapLongitude(zone.longitude - east)) ? west : east,
  }
  return distanceKm(zone, nearest) * 1000 <= zone.radiusMetres
}

/**
 * Whether the step from a to b passes within `margin` metres of the zone's edge, measured on a plane about the zone's
 * centre (each position's own parallel scaled by its latitude): close enough for a zone of up to 500 km, and the
 * margin is generous.
 */
function stepNear(zone: RouteZone, a: [number, number], b: [number, number], margin: number): boolean {
  const project = ([longitude, latitude]: [number, number]) => [
    wrapLongitude(longitude - zone.longitude) * Math.cos((latitude * Math.PI) / 180) * M_PER_DEGREE,
    (latitude - zone.latitude) * M_PER_DEGREE,
  ]
  const [ax, ay] = project(a)
  const [bx, by] = project(b)
  const [dx, dy] = [bx! - ax!, by! - ay!]
  const along = dx === 0 && dy === 0 ? 0 : Math.min(1, Math.max(0, -(ax! * dx + ay! * dy) / (dx * dx + dy * dy)))
  return Math.hypot(ax! + along * dx, ay! + along * dy) <= zone.radiusMetres * 1.02 + margin
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

/** The line simplified to within `toleranceM` (Douglas–Peucker, on a plane scaled at its middle latitude). */
function simplified(line: Line, toleranceM: number): Line {
  if (line.length <= 2) return line
  const middle = line[line.length >> 1]![1]
  const scale = Math.cos((middle * Math.PI) / 180) * M_PER_DEGREE
  const points = line.map(([longitude, latitude], index) => ({ x: longitude * scale, y: latitude * M_PER_DEGREE, index }))
  return (simplify(points, toleranceM, true) as typeof points).map(({ index }) => line[index]!)
}

/**
 * The lines the public may see of `tracks` at `level`, drawn to within `toleranceM`; none where everything is
 * withheld. A track's segments stay apart (the logger was off between them).
 */
export function publicLines(tracks: readonly Track[], level: 'exact' | 'approximate', zones: readonly RouteZone[], toleranceM: number): Line[] {
  const lines: Line[] = []
  const margin = toleranceM * 1.5 + 10
  let line: Line = []
  const flush = () => {
    if (line.length >= 2) lines.push(simplified(line, toleranceM).map(([longitude, latitude]) => [round6(longitude), round6(latitude)]))
    line = []
  }
  for (const track of tracks) {
    const ends = [...track.segmentStarts.slice(1), track.latitudes.length]
    track.segmentStarts.forEach((start, s) => {
      for (let i = start; i < ends[s]!; i++) {
        const [latitude, longitude] = [track.latitudes[i]!, track.longitudes[i]!]
        if (zones.some((zone) => cellTouches(zone, latitude, longitude))) {
          flush()
          continue
        }
        const shown = level === 'approximate' ? cellCentre(latitude, longitude) : { latitude, longitude }
        const here: [number, number] = [shown.longitude, shown.latitude]
        const last = line.at(-1)
        if (last && last[0] === here[0] && last[1] === here[1]) continue
        if (last && zones.some((zone) => stepNear(zone, last, here, margin))) flush()
        else if (last && Math.abs(here[0] - last[0]) > 180) {
          // The short way crosses the antimeridian: end the line on it and go on from the other side.
          const side = last[0] > 0 ? 180 : -180
          const width = 360 - Math.abs(here[0] - last[0])
          const crossing = last[1] + ((here[1] - last[1]) * (180 - Math.abs(last[0]))) / width
          line.push([side, crossing])
          flush()
          line.push([-side, crossing])
        }
        line.push(here)
      }
      flush()
    })
  }
  return lines
}
