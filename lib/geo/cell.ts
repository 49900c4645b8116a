import { roundCoordinate } from './precision'

// The grid of the "approximate" level (docs/privacy.md): fixed cells of about 1 km by 1 km on the ground, the same for
// every post and every request, so that many answers about one place (or one place edited many times within its cell)
// give the same centre and averaging them reveals nothing more. Rows are 0.009° of latitude (1.0 km); each row is cut
// into as many columns as make them about as wide on the ground, so cells stay near-square from the equator to the poles.

/** The height of a row, in degrees of latitude: 1.0 km. */
export const CELL_DEGREES = 0.009
const ROWS = Math.round(180 / CELL_DEGREES)

type Cell = { row: number; columns: number; column: number }

function cellOf(latitude: number, longitude: number): Cell {
  const row = Math.min(ROWS - 1, Math.max(0, Math.floor((latitude + 90) / CELL_DEGREES)))
  const centreLatitude = -90 + (row + 0.5) * CELL_DEGREES
  const columns = Math.max(1, Math.floor((360 * Math.cos((centreLatitude * Math.PI) / 180)) / CELL_DEGREES))
  const column = Math.min(columns - 1, Math.max(0, Math.floor(((longitude + 180) / 360) * columns)))
  return { row, columns, column }
}

/** The centre of the cell a point lies in, at the admin's 7 decimals. */
export function cellCentre(latitude: number, longitude: number): { latitude: number; longitude: number } {
  const { row, columns, column } = cellOf(latitude, longitude)
  return { latitude: roundCoordinate(-90 + (row + 0.5) * CELL_DEGREES), longitude: roundCoordinate(-180 + ((column + 0.5) * 360) / columns) }
}

/** The edges of the cell a point lies in, in degrees. */
export function cellBounds(latitude: number, longitude: number): { south: number; west: number; north: number; east: number } {
  const { row, columns, column } = cellOf(latitude, longitude)
  const south = -90 + row * CELL_DEGREES
  const west = -180 + (column * 360) / columns
  return { south, west, north: south + CELL_DEGREES, east: west + 360 / columns }
}
