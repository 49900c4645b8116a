// The map's town names as tiles (lib/geo/labels.ts makes them, app/_components/town-labels.tsx draws them): what the
// server and the browser agree on, so it imports nothing.

/** Where the names of tile z/x/y are: `${TOWN_LABELS_PATH}/z/x/y`. A change that moves a name is a new version. */
export const TOWN_LABELS_PATH = '/basemap/labels/v1'

export const MIN_LABEL_ZOOM = 2
/** Closer than this, the map shows this zoom's names: a town of 1,000 people has its name by then. */
export const MAX_LABEL_ZOOM = 13

/** From a town's point to its name, CSS pixels: the dot drawn there (.town-labels in globals.css) and a space. */
export const DOT = 5

/** A name as the map draws it: the town's name, its point (a dot), its font size in CSS pixels, and its side of the dot. */
export type TownLabel = [name: string, longitude: number, latitude: number, px: number, anchor: 'right' | 'left' | 'above' | 'below']

/**
 * A tile of names is 1024 pixels square at its zoom, four map tiles each way: a view asks for four or six, not twenty
 * (which, six at a time over HTTP/1.1, would keep the places' own requests waiting).
 */
export const LABEL_TILE_PX = 1024

/** How many tiles of names span the world at a zoom, each way: one at MIN_LABEL_ZOOM. */
export const labelTilesAt = (zoom: number): number => 2 ** (zoom - MIN_LABEL_ZOOM)

/** Whether z/x/y names a tile of names the map asks for. */
export function isLabelTile(zoom: number, x: number, y: number): boolean {
  return (
    Number.isInteger(zoom) && zoom >= MIN_LABEL_ZOOM && zoom <= MAX_LABEL_ZOOM && [x, y].every((n) => Number.isInteger(n) && n >= 0 && n < labelTilesAt(zoom))
  )
}
