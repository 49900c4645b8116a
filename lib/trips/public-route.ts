import simplify from 'simplify-js'
import { cellBounds, cellCentre } from '../geo/cell'
import { distanceKm, EARTH_RADIUS_KM, KM_PER_DEGREE, wrapLongitude } from '../geo/precision'
import { TrackBuilder, type Track } from './track'

// What the public may see of a trip's tracks, as lines to draw (docs/privacy.md, "Trips"); lib/places/visibility.ts
// applies it. A track passes through home, so every privacy zone cuts it, whatever the zone's level:
// - a point is withheld when its ~1 km cell of the approximate grid (lib/geo/cell.ts) touches a zone, so the line ends
//   on the grid's edge, not on the zone's circle: ends seen on many trips tell where the zone is no better than the
//   approximate level tells where a post is;
// - a line is also broken where a step between two kept points would pass within the zone (a sparse track, a
//   planned route), as a map draws the step: nothing is drawn across a zone, not even a straight line;
// - simplified lines stay within their tolerance of what they simplify, so the step test keeps that much more away;
// - what is said of the route (distance, time, climb) is counted on the points kept, so a trip that starts at home
//   does not tell when its owner left.
// At the approximate level each point is its cell's centre, as a post's point is. A line is cut where it crosses the
// antimeridian, as RFC 7946 asks.

/** A line of [longitude, latitude] positions, GeoJSON's order. */
export type Line = [number, number][]

export type RouteZone = { latitude: number; longitude: number; radiusMetres: number }

/** How far a drawn line may stray from the track: the trip's own map at street level, and small maps of many trips. */
export const DETAIL_TOLERANCE_M = 5
export const OVERVIEW_TOLERANCE_M = 100

const M_PER_DEGREE = KM_PER_DEGREE * 1000
const CELL_DIAGONAL_M = 2_000
const CELL_HEIGHT_M = 1_000

/**
 * Whether the cell a point lies in touches the zone: its nearest point to the zone's centre lies within the radius.
 * That point is found on a plane (the zone's latitude, within the cell's rows); on the sphere the nearest point of a
 * parallel far east or west of a large zone lies poleward of it, by up to half the squared span in longitude times
 * sin·cos of the latitude: allowed as slack, at most a cell's height.
 */
function cellTouches(zone: RouteZone, latitude: number, longitude: number): boolean {
  if (Math.abs(latitude - zone.latitude) * M_PER_DEGREE > zone.radiusMetres + CELL_DIAGONAL_M) return false
  const { south, west, north, east } = cellBounds(latitude, longitude)
  const fromWest = wrapLongitude(zone.longitude - west)
  const nearest = {
    latitude: Math.min(north, Math.max(south, zone.latitude)),
    longitude: fromWest >= 0 && fromWest <= east - west ? zone.longitude : Math.abs(fromWest) < Math.abs(wrapLongitude(zone.longitude - east)) ? west : east,
  }
  const phi = zone.latitude * RADIANS
  const span = zone.radiusMetres / (EARTH_RADIUS_KM * 1000 * Math.max(0.01, Math.cos(phi)))
  const slack = Math.min(CELL_HEIGHT_M, ((EARTH_RADIUS_KM * 1000 * span * span) / 2) * Math.abs(Math.sin(phi) * Math.cos(phi))) + 1
  return distanceKm(zone, nearest) * 1000 <= zone.radiusMetres + slack
}

/** Metres between the points a step is tested at: a point of the step between two lies within half of it of one. */
const STEP_SAMPLE_M = 200

/** Web Mercator's y, in Earth radii; the poles (infinitely far) taken as Web Mercator's own edge, 85.05°. */
const mercatorY = (latitude: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85.06, Math.min(85.06, latitude)) * Math.PI) / 360))
const fromMercatorY = (y: number) => (Math.atan(Math.sinh(y)) * 180) / Math.PI
const RADIANS = Math.PI / 180

/** The cosine of the latitude nearest the equator between a and b: metres per Earth radius of map there, at most. */
const widestCos = (a: number, b: number) => (Math.sign(a) !== Math.sign(b) ? 1 : Math.cos(Math.min(Math.abs(a), Math.abs(b)) * RADIANS))

/**
 * Whether the step from a to b, as a map draws it (straight in Web Mercator, the short way round), passes within
 * `margin` metres of the zone's edge: points along it every STEP_SAMPLE_M or less, each measured on the sphere.
 */
function stepNear(zone: RouteZone, a: [number, number], b: [number, number], margin: number): boolean {
  const [ya, yb, east] = [mercatorY(a[1]), mercatorY(b[1]), wrapLongitude(b[0] - a[0])]
  // The line's length as drawn, in metres where the map's scale is largest: never less than it is on the ground.
  const drawnM = Math.hypot(east * RADIANS, yb - ya) * EARTH_RADIUS_KM * 1000 * widestCos(a[1], b[1])
  const reach = zone.radiusMetres + margin + STEP_SAMPLE_M / 2
  if (Math.min(Math.abs(a[1] - zone.latitude), Math.abs(b[1] - zone.latitude)) * M_PER_DEGREE > reach + drawnM) return false
  const steps = Math.max(1, Math.ceil(drawnM / STEP_SAMPLE_M))
  for (let k = 0; k <= steps; k++) {
    const point = { latitude: fromMercatorY(ya + ((yb - ya) * k) / steps), longitude: wrapLongitude(a[0] + (east * k) / steps) }
    if (distanceKm(zone, point) * 1000 <= reach) return true
  }
  return false
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6

/**
 * The line simplified to within `toleranceM` (Douglas–Peucker) on the map, where its chords are drawn straight (Web
 * Mercator), scaled at the line's latitude nearest the equator: distances are never taken for less than they are,
 * so no point strays further than the tolerance from the chord drawn for it.
 */
function simplified(line: Line, toleranceM: number): Line {
  if (line.length <= 2) return line
  const nearestEquator = line.reduce((least, [, latitude]) => Math.min(least, Math.abs(latitude)), 90)
  const scale = Math.cos(nearestEquator * RADIANS) * EARTH_RADIUS_KM * 1000
  const points = line.map(([longitude, latitude], index) => ({ x: longitude * RADIANS * scale, y: mercatorY(latitude) * scale, index }))
  return (simplify(points, toleranceM, true) as typeof points).map(({ index }) => line[index]!)
}

/**
 * What the public may see of `tracks`: each segment's runs of points whose cells touch no zone, as tracks of those
 * runs (one segment each), with their times and elevations: the figures (distance, time, climb) are counted on them.
 */
export function keptParts(tracks: readonly Track[], zones: readonly RouteZone[]): Track[] {
  return tracks.map((track) => {
    const kept = new TrackBuilder()
    const ends = [...track.segmentStarts.slice(1), track.latitudes.length]
    track.segmentStarts.forEach((start, s) => {
      kept.segment()
      for (let i = start; i < ends[s]!; i++) {
        const [latitude, longitude] = [track.latitudes[i]!, track.longitudes[i]!]
        if (zones.some((zone) => cellTouches(zone, latitude, longitude))) kept.segment()
        else kept.add(latitude, longitude, track.times[i], track.elevations[i])
      }
    })
    return kept.build(track.name)
  })
}

/**
 * The lines to draw of `parts` (keptParts) at `level`, to within `toleranceM`: broken where a step would pass through
 * a zone, and at the antimeridian; a segment stays apart from the next (the logger was off, or a zone between).
 */
export function drawLines(parts: readonly Track[], level: 'exact' | 'approximate', zones: readonly RouteZone[], toleranceM: number): Line[] {
  const lines: Line[] = []
  const margin = toleranceM * 1.5 + 10
  let line: Line = []
  const flush = () => {
    if (line.length >= 2) lines.push(simplified(line, toleranceM).map(([longitude, latitude]) => [round6(longitude), round6(latitude)]))
    line = []
  }
  for (const part of parts) {
    const ends = [...part.segmentStarts.slice(1), part.latitudes.length]
    part.segmentStarts.forEach((start, s) => {
      for (let i = start; i < ends[s]!; i++) {
        const [latitude, longitude] = [part.latitudes[i]!, part.longitudes[i]!]
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

/** The lines the public may see of `tracks` at `level`, drawn to within `toleranceM`: keptParts, then drawLines. */
export function publicLines(tracks: readonly Track[], level: 'exact' | 'approximate', zones: readonly RouteZone[], toleranceM: number): Line[] {
  return drawLines(keptParts(tracks, zones), level, zones, toleranceM)
}
