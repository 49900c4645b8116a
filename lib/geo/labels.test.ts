import assert from 'node:assert/strict'
import { test } from 'node:test'
import { isLabelTile, LABEL_TILE_PX, labelTilesAt, MAX_LABEL_ZOOM, MIN_LABEL_ZOOM } from './label-tiles'
import type { Cities } from './gazetteer'
import { placeLabels, rankTowns, townLabels } from './labels'
import { mercatorX, mercatorY } from './web-mercator'

/** The names a map of 1280 × 800 pixels centred on a point shows at a zoom, as town-labels.tsx asks for them. */
async function namesInView(latitude: number, longitude: number, zoom: number): Promise<string[]> {
  const [x, y] = [mercatorX(longitude) * 256 * 2 ** zoom, mercatorY(latitude) * 256 * 2 ** zoom]
  const names: string[] = []
  for (let column = Math.floor((x - 640) / LABEL_TILE_PX); column <= Math.floor((x + 640) / LABEL_TILE_PX); column++) {
    for (let row = Math.floor((y - 400) / LABEL_TILE_PX); row <= Math.floor((y + 400) / LABEL_TILE_PX); row++) {
      names.push(...(await townLabels(zoom, column, row)).map(([name]) => name))
    }
  }
  return names
}

test('at zoom 10 over Paris the map names Paris, Versailles and Saint-Denis', async () => {
  const names = await namesInView(48.8566, 2.3522, 10)
  for (const name of ['Paris', 'Versailles', 'Saint-Denis']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`)
})

test('a continent shows its great cities first, and no part of a city as a town', async () => {
  const europe = await namesInView(50, 10, 4)
  for (const name of ['Paris', 'Berlin', 'Rome', 'Madrid']) assert.ok(europe.includes(name), `${name} in ${europe.join(', ')}`)
  assert.ok(!europe.includes('Versailles'), 'a town of 85,000 people named at zoom 4')
  // GeoNames' PPLX: Marseille's quarters (Saint-Loup, 16,084 people) are not towns of their own.
  const marseille = await namesInView(43.2965, 5.3698, 12)
  assert.ok(marseille.includes('Marseille'))
  assert.ok(!marseille.includes('Saint-Loup'), marseille.join(', '))
})

test("each name is in one tile, and a tile's four halves at the next zoom name more", async () => {
  // The tiles over the Ruhr, from Europe down to a town's streets.
  const [longitude, latitude] = [7, 51.4]
  for (let zoom = MIN_LABEL_ZOOM; zoom < MAX_LABEL_ZOOM; zoom++) {
    const [x, y] = [Math.floor(mercatorX(longitude) * labelTilesAt(zoom)), Math.floor(mercatorY(latitude) * labelTilesAt(zoom))]
    const shown = await townLabels(zoom, x, y)
    const children = (await Promise.all([0, 1, 2, 3].map((i) => townLabels(zoom + 1, 2 * x + (i % 2), 2 * y + (i >> 1))))).flat()
    const around = [-1, 1].flatMap((d) => [[x + d, y] as const, [x, y + d] as const]).filter(([column, row]) => isLabelTile(zoom, column, row))
    const neighbours = (await Promise.all(around.map(([column, row]) => townLabels(zoom, column, row)))).flat()
    const keys = [...shown, ...neighbours].map(([name, longitude, latitude]) => `${name} ${longitude} ${latitude}`)
    assert.equal(new Set(keys).size, keys.length, `a name in two tiles at zoom ${zoom}`)
    assert.ok(children.length >= shown.length, `${children.length} names at zoom ${zoom + 1}, ${shown.length} at ${zoom}`)
    // The larger towns stay: all but a few of a tile's names are in its halves too.
    const kept = shown.filter(([name]) => children.some(([child]) => child === name))
    assert.ok(kept.length >= shown.length * 0.8, `${kept.length} of ${shown.length} names kept from zoom ${zoom} to ${zoom + 1}`)
  }
})

test('a tile outside the zooms or the world is refused', async () => {
  for (const [zoom, x, y] of [
    [MIN_LABEL_ZOOM - 1, 0, 0],
    [MAX_LABEL_ZOOM + 1, 0, 0],
    [2, 1, 0],
    [3, 0, 2],
    [3, 0, -1],
    [2.5, 0, 0],
  ] as const) {
    await assert.rejects(townLabels(zoom, x, y), RangeError)
  }
})

test('names either side of the antimeridian are kept apart as anywhere else', async () => {
  // Two cities a hundredth of a degree apart: where each name goes (and whether it has one) is the same across the
  // antimeridian as across the 10th meridian.
  const pair = (west: number, east: number): Cities => ({
    size: 2,
    names: ['Westerwick', 'Easterwick'],
    regions: [undefined, undefined],
    countries: ['FJ', 'FJ'],
    latitudes: Float64Array.of(-17, -17),
    longitudes: Float64Array.of(west, east),
    populations: Uint32Array.of(2_000_000, 1_500_000),
    kinds: Uint8Array.of(0, 0),
  })
  for (const zoom of [6, 9, 12]) {
    const plain = await placeLabels(rankTowns(pair(9.995, 10.005)), zoom)
    const across = await placeLabels(rankTowns(pair(179.995, -179.995)), zoom)
    assert.deepEqual([...across], [...plain], `zoom ${zoom}`)
  }
})
