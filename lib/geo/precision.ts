// One precision for coordinates in the admin, typed, picked, stored and shown: 7 decimals, about 1 cm
// (docs/geocoding.md). More only repeats the float's noise; fewer moves a point that was placed with care.

export const COORDINATE_DECIMALS = 7

const SCALE = 10 ** COORDINATE_DECIMALS

/** A coordinate rounded to the admin's precision. */
export function roundCoordinate(value: number): number {
  return Math.round(value * SCALE) / SCALE
}

/** A coordinate as the admin shows it: rounded, without trailing zeros (48.8584, not 48.8584000). */
export function formatCoordinate(value: number): string {
  return String(roundCoordinate(value))
}

/** The Earth's mean radius (IUGG), in km. */
export const EARTH_RADIUS_KM = 6371.0088

/** Kilometres per degree of latitude on that sphere. */
export const KM_PER_DEGREE = (Math.PI / 180) * EARTH_RADIUS_KM

/** Great-circle distance in km between two points (haversine, mean Earth radius). */
export function distanceKm(from: { latitude: number; longitude: number }, to: { latitude: number; longitude: number }): number {
  const radians = Math.PI / 180
  const dLat = (to.latitude - from.latitude) * radians
  const dLng = (to.longitude - from.longitude) * radians
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(from.latitude * radians) * Math.cos(to.latitude * radians) * Math.sin(dLng / 2) ** 2
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** A longitude brought into [-180, 180). */
export const wrapLongitude = (longitude: number): number => ((((longitude + 180) % 360) + 360) % 360) - 180
