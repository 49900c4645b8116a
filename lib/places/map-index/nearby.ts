import type { BBox } from '../../api/contract'
import { wrapLongitude } from '../../geo/precision'
import { ranksIn, WORLD } from './box'
import type { PlaceIndex } from './place-index'

/** The mean radius of the Earth (IUGG), in metres. */
const EARTH_RADIUS_METRES = 6_371_008.8
const RADIANS = Math.PI / 180

/** The great-circle distance between two positions, in degrees of arc (haversine). */
export function arcDegrees(latitude1: number, longitude1: number, latitude2: number, longitude2: number): number {
  const dLatitude = (latitude2 - latitude1) * RADIANS
  const dLongitude = (longitude2 - longitude1) * RADIANS
  const h = Math.sin(dLatitude / 2) ** 2 + Math.cos(latitude1 * RADIANS) * Math.cos(latitude2 * RADIANS) * Math.sin(dLongitude / 2) ** 2
  return (2 * Math.asin(Math.min(1, Math.sqrt(h)))) / RADIANS
}

export const metresOf = (degrees: number): number => degrees * RADIANS * EARTH_RADIUS_METRES

/**
 * A box holding every position within `degrees` of arc of a position: its latitudes ± degrees, and the longitudes
 * that the circle spans at its widest (J. P. Matuschek, "Finding Points Within a Distance of a Latitude/Longitude
 * Using Bounding Coordinates"); every longitude when the circle reaches a pole. West > east when it crosses the
 * antimeridian, as boxes do everywhere in the app.
 */
export function boxAround(latitude: number, longitude: number, degrees: number): BBox {
  const south = latitude - degrees
  const north = latitude + degrees
  if (south <= -90 || north >= 90) return [-180, Math.max(south, -90), 180, Math.min(north, 90)]
  const spread = Math.asin(Math.sin(degrees * RADIANS) / Math.cos(latitude * RADIANS)) / RADIANS
  return [wrapLongitude(longitude - spread), south, wrapLongitude(longitude + spread), north]
}

export type NearPlace = { id: number; latitude: number; longitude: number; metres: number }

// The first search radius (about 1 km), and how much it grows each time it holds too few places.
const FIRST_RADIUS_DEGREES = 0.01
const GROWTH = 4

/**
 * The `k` places of the index nearest a position, nearest first (ties by id), leaving out the place `exceptId`. The
 * places in a box around the position are looked at, in a box four times wider each time, until `k` of them are
 * within the circle the box holds: no place outside it can be nearer. A few small boxes where places are dense.
 */
export function nearestPlaces(index: PlaceIndex, latitude: number, longitude: number, k: number, exceptId: number | null = null): NearPlace[] {
  if (k <= 0 || index.size === 0) return []
  for (let radius = FIRST_RADIUS_DEGREES; ; radius *= GROWTH) {
    const isWholeWorld = radius >= 180
    const nearest: { rank: number; degrees: number }[] = []
    for (const rank of ranksIn(index, isWholeWorld ? WORLD : boxAround(latitude, longitude, radius))) {
      const id = index.ids.get(rank)
      if (id === exceptId) continue
      const degrees = arcDegrees(latitude, longitude, index.latitudes.get(rank), index.longitudes.get(rank))
      // The best k so far, in order: one insertion each, never a sort of every place of a large box.
      const last = nearest.at(-1)
      if (nearest.length === k && last && !isCloser(degrees, id, last.degrees, index.ids.get(last.rank))) continue
      let at = nearest.length
      while (at > 0 && isCloser(degrees, id, nearest[at - 1]!.degrees, index.ids.get(nearest[at - 1]!.rank))) at--
      nearest.splice(at, 0, { rank, degrees })
      if (nearest.length > k) nearest.pop()
    }
    if (isWholeWorld || (nearest.length === k && nearest.at(-1)!.degrees <= radius)) {
      return nearest.map(({ rank, degrees }) => ({
        id: index.ids.get(rank),
        latitude: index.latitudes.get(rank),
        longitude: index.longitudes.get(rank),
        metres: metresOf(degrees),
      }))
    }
  }
}

const isCloser = (degrees: number, id: number, otherDegrees: number, otherId: number): boolean =>
  degrees < otherDegrees || (degrees === otherDegrees && id < otherId)
