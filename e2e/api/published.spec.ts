import { expectFeatureShape, expectWordPressError, getCollection } from '../support/http'
import { byDateThenIdDesc, publicPlaces } from '../support/places'
import { expect, test } from '../support/test'

// `after` and `before` of GET /places/v1/geojson and /export (docs/api.md, after and before), against both databases,
// on a site in UTC (the default): the expected answers are computed from the fixtures, never from the server. The
// site's time zone is test/places/published.test.ts's.

type BBox = [number, number, number, number]
type MapCollection = { total: number; features: { properties: { id?: number; cluster?: true; cluster_id?: number; point_count?: number } }[] }

/** The public posts published within [start, end] (milliseconds, ends included), newest first. */
function expectedWithin(start: number, end: number, where: (coordinates: [number, number]) => boolean = () => true): number[] {
  return publicPlaces
    .filter((p) => p.type === 'post' && p.date >= start && p.date <= end && where(p.coordinates!))
    .sort(byDateThenIdDesc)
    .map((p) => p.id)
}

const ids = (collection: { features: { properties: { id?: number } }[] }) => collection.features.map((f) => f.properties.id)

test.describe('GET /geojson?after=&before=', () => {
  test('dates include their whole day; newest first, a page at a time', async ({ request }) => {
    const expected = expectedWithin(Date.parse('2023-01-01T00:00:00Z'), Date.parse('2025-01-01T00:00:00Z') - 1)
    expect(expected.length, 'the fixtures have places of 2023 and 2024').toBeGreaterThan(3)
    const collection = await getCollection(request, '?after=2023-01-01&before=2024-12-31&posts_per_page=100')
    expect(ids(collection)).toEqual(expected)
    for (const feature of collection.features) expectFeatureShape(feature)
    expect(ids(await getCollection(request, '?after=2023-01-01&before=2024-12-31&posts_per_page=2&page=2'))).toEqual(expected.slice(2, 4))
    // Either end alone; the alias answers the same.
    expect(ids(await getCollection(request, '?after=2025-01-14&posts_per_page=100'))).toEqual(expectedWithin(Date.parse('2025-01-14T00:00:00Z'), Infinity))
    expect(ids(await getCollection(request, '?before=2001-01-01&posts_per_page=100'))).toEqual(
      expectedWithin(-Infinity, Date.parse('2001-01-02T00:00:00Z') - 1),
    )
    expect(ids(await getCollection(request, '?after=2023-01-01&before=2024-12-31&posts_per_page=100', '/wp-json/places/v1'))).toEqual(expected)
  })

  test('date-times exclude their instant; places that share one are all in or all out', async ({ request }) => {
    // The bulk fixture: two places an hour, from 2001-01-01T00:00Z.
    const [from, to] = [Date.parse('2001-01-03T05:00:00Z'), Date.parse('2001-01-04T07:00:00Z')]
    const expected = expectedWithin(from + 1, to - 1)
    expect(expected.length).toBe(2 * 25)
    const query = `?after=${new Date(from).toISOString()}&before=${new Date(to).toISOString()}&posts_per_page=500`
    expect(ids(await getCollection(request, query))).toEqual(expected)
    // One millisecond wider at each end: the four places at the two instants come in.
    const wider = `?after=${new Date(from - 1).toISOString()}&before=${new Date(to + 1).toISOString()}&posts_per_page=500`
    expect(ids(await getCollection(request, wider))).toEqual(expectedWithin(from, to))
    // An offset, sent as %2B; a space for T, lower-case t and z.
    expect(ids(await getCollection(request, `?after=2001-01-03T07:00:00%2B02:00&before=2001-01-04 07:00:00z&posts_per_page=500`))).toEqual(expected)
    expect(ids(await getCollection(request, `?after=2001-01-03t05:00:00Z&before=2001-01-04T07:00&posts_per_page=500`))).toEqual(expected)
  })

  test('with bbox, cluster and cluster_id: totals, clusters and pages of the interval only', async ({ request }) => {
    const box: BBox = [-180, -60, 0, 60]
    const inBox = ([longitude, latitude]: [number, number]) => longitude >= box[0] && longitude <= box[2] && latitude >= box[1] && latitude <= box[3]
    const [start, end] = [Date.parse('2001-01-02T00:00:00Z'), Date.parse('2001-01-06T00:00:00Z') - 1]
    const expected = expectedWithin(start, end, inBox)
    const interval = 'after=2001-01-02&before=2001-01-05'
    const boxed = (await getCollection(request, `?${interval}&bbox=${box.join()}&posts_per_page=10&page=2`)) as unknown as MapCollection
    expect(boxed.total).toBe(expected.length)
    expect(ids(boxed)).toEqual(expected.slice(10, 20))
    const clustered = (await getCollection(request, `?${interval}&cluster=true&zoom=2&bbox=${box.join()}`)) as unknown as MapCollection
    expect(clustered.total).toBe(expected.length)
    const drawn = clustered.features.reduce((sum, f) => sum + (f.properties.cluster ? f.properties.point_count! : 1), 0)
    expect(drawn, 'each place of the interval in the box is drawn once').toBe(expected.length)
    const cluster = clustered.features.find((f) => f.properties.cluster)!
    const ofCluster = (await getCollection(request, `?${interval}&cluster_id=${cluster.properties.cluster_id}&posts_per_page=500`)) as unknown as MapCollection
    expect(ofCluster.total).toBe(cluster.properties.point_count)
    for (const id of ids(ofCluster)) expect(expected).toContain(id)
    // Without the interval the same view holds more: the answer is the interval's, not a cached other one.
    expect(((await getCollection(request, `?cluster=true&zoom=2&bbox=${box.join()}`)) as unknown as MapCollection).total).toBeGreaterThan(expected.length)
  })

  test('anything but a date or a date-time is a 400 naming it; so is before earlier than after', async ({ request }) => {
    for (const bad of ['yesterday', '2024-02-30', '2024-05', '1714557600']) {
      const body = await expectWordPressError(await request.get(`/places/v1/geojson?after=${bad}`), 400, 'rest_invalid_param')
      expect(Object.keys(body.data.params as object), bad).toEqual(['after'])
    }
    // An offset's + left unencoded reads as a space: the message says how to write it.
    const plus = await expectWordPressError(await request.get('/places/v1/geojson?before=2024-05-01T10:00:00+05:30'), 400, 'rest_invalid_param')
    expect((plus.data.params as Record<string, string>).before).toContain('%2B')
    const inverted = await expectWordPressError(await request.get('/places/v1/geojson?after=2024-02-01&before=2024-01-31'), 400, 'rest_invalid_param')
    expect(Object.keys(inverted.data.params as object)).toEqual(['before'])
    expect(ids(await getCollection(request, '?after=2024-02-01&before=2024-02-01&posts_per_page=100'))).toEqual(
      expectedWithin(Date.parse('2024-02-01T00:00:00Z'), Date.parse('2024-02-02T00:00:00Z') - 1),
    )
  })
})

test.describe('GET /export?after=&before=', () => {
  test('the file holds the places of the interval, newest first; a bad one is a 400', async ({ request }) => {
    const response = await request.get('/places/v1/export?format=csv&after=2001-01-10&before=2001-01-10')
    expect(response.status()).toBe(200)
    const [header, ...rows] = (await response.text()).trim().split(/\r?\n/)
    expect(header!.split(',')[0]).toBe('id')
    const expected = expectedWithin(Date.parse('2001-01-10T00:00:00Z'), Date.parse('2001-01-11T00:00:00Z') - 1)
    expect(expected.length).toBe(48)
    expect(rows.map((row) => Number(row.split(',')[0]))).toEqual(expected)
    const body = await expectWordPressError(await request.get('/places/v1/export?after=soon'), 400, 'rest_invalid_param')
    expect(Object.keys(body.data.params as object)).toEqual(['after'])
  })
})

type Timeline = { unit: 'year' | 'month'; total: number; periods: { start: string; end: string; count: number }[] }

test.describe('GET /timeline', () => {
  /** The fixtures' public posts of a box counted by the UTC year or month of their dates, oldest first. */
  function expectedPeriods(unit: 'year' | 'month', where: (coordinates: [number, number]) => boolean = () => true): [string, number][] {
    const counts = new Map<string, number>()
    for (const p of publicPlaces.filter((p) => p.type === 'post' && where(p.coordinates!))) {
      const start = unit === 'year' ? `${new Date(p.date).toISOString().slice(0, 4)}-01-01` : `${new Date(p.date).toISOString().slice(0, 7)}-01`
      counts.set(start, (counts.get(start) ?? 0) + 1)
    }
    return [...counts].sort(([a], [b]) => a.localeCompare(b))
  }

  test('the places of a view counted by year (they span decades), each period listed by after and before', async ({ request }) => {
    const response = await request.get('/places/v1/timeline')
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toMatch(/^application\/json/)
    const timeline = (await response.json()) as Timeline
    expect(timeline.unit).toBe('year')
    expect(timeline.periods.map((p) => [p.start, p.count])).toEqual(expectedPeriods('year'))
    expect(timeline.total).toBe(publicPlaces.filter((p) => p.type === 'post').length)
    // A period's after and before list its places: the timeline and the map agree.
    const period = timeline.periods.find((p) => p.count > 1 && p.count <= 500)!
    expect(period.end).toBe(`${period.start.slice(0, 4)}-12-31`)
    expect(ids(await getCollection(request, `?after=${period.start}&before=${period.end}&posts_per_page=500`))).toHaveLength(period.count)
  })

  test('in a box, by month when asked; a bad unit or box is a 400 naming it', async ({ request }) => {
    const box: BBox = [-180, 0, 180, 90]
    const north = ([, latitude]: [number, number]) => latitude >= 0
    const timeline = (await (await request.get(`/places/v1/timeline?bbox=${box.join()}&unit=month`)).json()) as Timeline
    expect(timeline.unit).toBe('month')
    expect(timeline.periods.map((p) => [p.start, p.count])).toEqual(expectedPeriods('month', north))
    // Each month ends on its last day (February 2024 on the 29th).
    for (const { start, end } of timeline.periods) {
      const [year, month] = start.split('-').map(Number) as [number, number]
      expect(end, start).toBe(new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10))
    }
    const body = await expectWordPressError(await request.get('/places/v1/timeline?unit=day&bbox=1,2,3'), 400, 'rest_invalid_param')
    expect(Object.keys(body.data.params as object).sort()).toEqual(['bbox', 'unit'])
  })
})
