import GeoJSONVT from 'geojson-vt'
import { zxyToTileId } from 'pmtiles'
import { fromGeojsonVt } from 'vt-pbf'
import { gzipSync } from 'node:zlib'

// A PMTiles archive written from GeoJSON, as an operator's region extract is (MAP_PMTILES, README "The map"): vector
// tiles cut by geojson-vt, encoded by vt-pbf, gzipped, in PMTiles version 3's layout
// (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): a 127-byte header, the root directory, the
// metadata, and the tiles in the order of their ids. The directory and metadata are not compressed.

function varints(values: number[]): Buffer {
  const bytes: number[] = []
  for (let value of values) {
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80)
      value = Math.floor(value / 0x80)
    }
    bytes.push(value)
  }
  return Buffer.from(bytes)
}

/** The archive of `layers` (a FeatureCollection each, by layer name) at zooms minZoom to maxZoom. */
export function pmtilesArchive(layers: Record<string, GeoJSON.FeatureCollection>, { minZoom, maxZoom }: { minZoom: number; maxZoom: number }): Buffer {
  const indexes = Object.entries(layers).map(([name, features]) => [name, new GeoJSONVT(features, { maxZoom, indexMaxZoom: maxZoom })] as const)
  let [west, south, east, north] = [180, 90, -180, -90]
  const visit = (coordinates: unknown): void => {
    if (typeof (coordinates as number[])[0] === 'number') {
      const [longitude, latitude] = coordinates as [number, number]
      ;[west, south, east, north] = [Math.min(west, longitude), Math.min(south, latitude), Math.max(east, longitude), Math.max(north, latitude)]
    } else for (const inner of coordinates as unknown[]) visit(inner)
  }
  for (const features of Object.values(layers)) for (const { geometry } of features.features) visit((geometry as GeoJSON.Point).coordinates)

  const tiles: { id: number; data: Buffer }[] = []
  for (let zoom = minZoom; zoom <= maxZoom; zoom++) {
    const n = 2 ** zoom
    const column = (longitude: number) => Math.min(n - 1, Math.floor(((longitude + 180) / 360) * n))
    const row = (latitude: number) => {
      const sin = Math.sin((latitude * Math.PI) / 180)
      return Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * n)))
    }
    for (let x = column(west); x <= column(east); x++) {
      for (let y = row(north); y <= row(south); y++) {
        const tile = Object.fromEntries(
          indexes.flatMap(([name, index]) => {
            const cut = index.getTile(zoom, x, y)
            return cut?.features.length ? [[name, cut]] : []
          }),
        )
        if (Object.keys(tile).length > 0) tiles.push({ id: zxyToTileId(zoom, x, y), data: gzipSync(fromGeojsonVt(tile, { version: 2 })) })
      }
    }
  }
  tiles.sort((a, b) => a.id - b.id)
  const offsets = tiles.map((_, i) => tiles.slice(0, i).reduce((sum, tile) => sum + tile.data.length, 0))
  const directory = Buffer.concat([
    varints([tiles.length]),
    varints(tiles.map((tile, i) => tile.id - (i > 0 ? tiles[i - 1]!.id : 0))),
    varints(tiles.map(() => 1)), // run lengths
    varints(tiles.map((tile) => tile.data.length)),
    varints(offsets.map((offset, i) => (i > 0 ? 0 : offset + 1))), // 0: right after the one before
  ])
  // The spec's limit: the header and root directory in the first 16 KiB (this writer makes no leaf directories).
  if (127 + directory.length > 16_384) throw new RangeError(`${tiles.length} tiles: the root directory would pass 16 KiB`)
  const metadata = Buffer.from(JSON.stringify({ vector_layers: Object.keys(layers).map((id) => ({ id, fields: {} })) }))
  const data = Buffer.concat(tiles.map((tile) => tile.data))

  const header = Buffer.alloc(127)
  header.write('PMTiles', 0, 'ascii')
  header.writeUInt8(3, 7)
  const sections = [
    [127, directory.length], // root directory
    [127 + directory.length, metadata.length],
    [127 + directory.length + metadata.length, 0], // leaf directories: none
    [127 + directory.length + metadata.length, data.length],
  ]
  sections.forEach(([offset, length], i) => {
    header.writeBigUInt64LE(BigInt(offset!), 8 + 16 * i)
    header.writeBigUInt64LE(BigInt(length!), 16 + 16 * i)
  })
  for (const [i, count] of [tiles.length, tiles.length, tiles.length].entries()) header.writeBigUInt64LE(BigInt(count), 72 + 8 * i) // addressed tiles, entries, contents
  header.writeUInt8(1, 96) // clustered
  header.writeUInt8(1, 97) // internal compression: none
  header.writeUInt8(2, 98) // tile compression: gzip
  header.writeUInt8(1, 99) // tile type: MVT
  header.writeUInt8(minZoom, 100)
  header.writeUInt8(maxZoom, 101)
  for (const [i, degrees] of [west, south, east, north].entries()) header.writeInt32LE(Math.round(degrees * 1e7), 102 + 4 * i)
  header.writeUInt8(maxZoom, 118)
  header.writeInt32LE(Math.round(((west + east) / 2) * 1e7), 119)
  header.writeInt32LE(Math.round(((south + north) / 2) * 1e7), 123)
  return Buffer.concat([header, directory, metadata, data])
}

/** Where the test basemap is: a few streets of a town that is not (inland New South Wales, away from the demo's places). */
export const TEST_BASEMAP = { west: 150.1, south: -30.03, east: 150.14, north: -30 }

/**
 * The tests' region, in the Protomaps basemap's layers and kinds (what protomaps-leaflet's flavors draw): land, a
 * lake, a highway and a main road with their names, and the town's name.
 */
export function testBasemap(): Buffer {
  const { west, south, east, north } = TEST_BASEMAP
  const feature = (geometry: GeoJSON.Geometry, properties: Record<string, string | number>): GeoJSON.Feature => ({ type: 'Feature', geometry, properties })
  const collection = (...features: GeoJSON.Feature[]): GeoJSON.FeatureCollection => ({ type: 'FeatureCollection', features })
  const [middleX, middleY] = [(west + east) / 2, (south + north) / 2]
  return pmtilesArchive(
    {
      earth: collection(
        feature(
          {
            type: 'Polygon',
            coordinates: [
              [
                [west, south],
                [east, south],
                [east, north],
                [west, north],
                [west, south],
              ],
            ],
          },
          { kind: 'earth' },
        ),
      ),
      water: collection(
        feature(
          {
            type: 'Polygon',
            coordinates: [
              [
                [west + 0.002, south + 0.002],
                [west + 0.01, south + 0.002],
                [west + 0.01, south + 0.008],
                [west + 0.002, south + 0.008],
                [west + 0.002, south + 0.002],
              ],
            ],
          },
          { kind: 'lake', name: 'Test Lake' },
        ),
      ),
      roads: collection(
        feature(
          {
            type: 'LineString',
            coordinates: [
              [west, south],
              [east, north],
            ],
          },
          { kind: 'highway', name: 'Test Highway', min_zoom: 6 },
        ),
        feature(
          {
            type: 'LineString',
            coordinates: [
              [west, middleY],
              [east, middleY],
            ],
          },
          { kind: 'major_road', name: 'Main Street', min_zoom: 10 },
        ),
      ),
      places: collection(
        feature({ type: 'Point', coordinates: [middleX + 0.004, middleY + 0.004] }, { kind: 'locality', name: 'Testville', min_zoom: 2, population_rank: 12 }),
      ),
    },
    { minZoom: 0, maxZoom: 14 },
  )
}
