// Web Mercator (EPSG:3857), the projection of the map's tiles, on the unit square: x east from longitude -180,
// y south from the square's top edge. Shared by the server (the map index, the bbox size limit) and the browser (the
// map's view as a bbox), so it imports nothing.

export const mercatorX = (longitude: number): number => longitude / 360 + 0.5

/** y of a latitude: 0 at MAX_MERCATOR_LATITUDE and beyond (the poles included), 1 at its opposite and beyond. */
export function mercatorY(latitude: number): number {
  const sin = Math.sin((latitude * Math.PI) / 180)
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI
  return y < 0 ? 0 : y > 1 ? 1 : y
}

/** The longitude of an x (mercatorX's inverse). */
export const longitudeOf = (x: number): number => (x - 0.5) * 360

/** The latitude of a y (mercatorY's inverse inside the square). */
export const latitudeOf = (y: number): number => (360 * Math.atan(Math.exp((1 - 2 * y) * Math.PI))) / Math.PI - 90

/**
 * Where the square ends, north and south: 85.0511287798066°. Places nearer a pole are drawn at it. (Leaflet's limit,
 * L.Projection.SphericalMercator.MAX_LATITUDE, is this rounded down to 85.0511287798.)
 */
export const MAX_MERCATOR_LATITUDE = latitudeOf(0)
