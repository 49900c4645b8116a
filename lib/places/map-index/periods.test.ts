import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Column } from './blocks'
import { timelineOf } from './periods'

/** Dates newest first, as an index holds them. */
const dates = (...texts: string[]) => Column.of(Float64Array.from(texts.map(Date.parse).sort((a, b) => b - a)))

test('by month when the places span at most 36 months: each month with places, oldest first, its days and count', () => {
  const timeline = timelineOf(
    dates('2024-01-31T23:59:59.999Z', '2024-01-01T00:00:00Z', '2024-03-01T00:00:00Z', '2024-02-29T12:00:00Z', '2024-03-15T00:00:00Z'),
    'UTC',
  )
  assert.deepEqual(timeline, {
    unit: 'month',
    total: 5,
    periods: [
      { start: '2024-01-01', end: '2024-01-31', count: 2 },
      { start: '2024-02-01', end: '2024-02-29', count: 1 },
      { start: '2024-03-01', end: '2024-03-31', count: 2 },
    ],
  })
})

test('by year past 36 months, or as asked; periods without places left out, however far apart', () => {
  const spread = dates('2016-05-01T00:00:00Z', '2016-12-31T23:59:59Z', '2020-01-01T00:00:00Z', '2025-07-01T00:00:00Z')
  assert.deepEqual(timelineOf(spread, 'UTC'), {
    unit: 'year',
    total: 4,
    periods: [
      { start: '2016-01-01', end: '2016-12-31', count: 2 },
      { start: '2020-01-01', end: '2020-12-31', count: 1 },
      { start: '2025-01-01', end: '2025-12-31', count: 1 },
    ],
  })
  assert.deepEqual(
    timelineOf(spread, 'UTC', 'month').periods.map((p) => [p.start, p.count]),
    [
      ['2016-05-01', 1],
      ['2016-12-01', 1],
      ['2020-01-01', 1],
      ['2025-07-01', 1],
    ],
  )
  assert.deepEqual(
    timelineOf(dates('0050-06-01T00:00:00Z', '9999-01-01T00:00:00Z'), 'UTC').periods.map((p) => p.start),
    ['0050-01-01', '9999-01-01'],
  )
  assert.deepEqual(timelineOf(dates(), 'UTC'), { unit: 'month', total: 0, periods: [] })
})

test("in the site's time zone: a place at 20:00 UTC on 31 December is in January in Tokyo", () => {
  const places = dates('2024-12-31T20:00:00Z', '2024-12-31T10:00:00Z')
  assert.deepEqual(
    timelineOf(places, 'UTC').periods.map((p) => [p.start, p.count]),
    [['2024-12-01', 2]],
  )
  assert.deepEqual(
    timelineOf(places, 'Asia/Tokyo').periods.map((p) => [p.start, p.count]),
    [
      ['2024-12-01', 1],
      ['2025-01-01', 1],
    ],
  )
  assert.deepEqual(
    timelineOf(places, 'Asia/Tokyo', 'year').periods.map((p) => [p.start, p.end, p.count]),
    [
      ['2024-01-01', '2024-12-31', 1],
      ['2025-01-01', '2025-12-31', 1],
    ],
  )
})

test('a year past 9999 in the zone, and a clock that skips midnight west of UTC', () => {
  // 9999-12-31T20:00Z is 10000-01-01 in Tokyo: a period of its own, not a walk through every month since.
  assert.deepEqual(
    timelineOf(dates('9999-12-31T20:00:00Z', '9999-06-01T00:00:00Z'), 'Asia/Tokyo').periods.map((p) => [p.start, p.count]),
    [
      ['9999-06-01', 1],
      ['10000-01-01', 1],
    ],
  )
  // Havana's clocks skipped from midnight to 01:00 on 1 April 2012: April began at 05:00 UTC, and a place at 04:30 UTC
  // (23:30 on 31 March) is March's.
  assert.deepEqual(
    timelineOf(dates('2012-04-01T04:30:00Z', '2012-04-01T05:00:00Z'), 'America/Havana').periods.map((p) => [p.start, p.count]),
    [
      ['2012-03-01', 1],
      ['2012-04-01', 1],
    ],
  )
})
