import type { BBox, Timeline } from '../../api/contract'
import { dayStart, daysInMonth, pad, zonedMonth } from '../../dates'
import { Column } from './blocks'
import { countPlacesIn, ranksIn } from './box'
import { firstWhere } from './grid'
import type { PlaceIndex } from './place-index'

// The map's timeline (docs/api.md, Timeline): how many of a view's places were published in each year or month of the
// site's time zone, from their dates, newest first, as an index holds them.

/** Places spanning at most this many months are counted by month; more, by year (unless the caller says). */
export const MAX_MONTHS = 36

const day = (year: number, month: number, date = 1) => `${pad(year, 4)}-${pad(month)}-${pad(date)}`

/**
 * The periods of `dates` (milliseconds, descending) in `timeZone` that hold places, oldest first, each with its count:
 * by `unit`, else by month when they span at most MAX_MONTHS months, else by year.
 */
export function timelineOf(dates: Column, timeZone: string, unit?: Timeline['unit']): Timeline {
  const total = dates.length
  if (total === 0) return { unit: unit ?? 'month', total, periods: [] }
  // Months counted from year 0 (a year is 12 of them), in the zone.
  const monthOf = (instant: number) => zonedMonth(instant, timeZone)
  const [oldest, newest] = [monthOf(dates.get(total - 1)), monthOf(dates.get(0))]
  const by = unit ?? (newest - oldest < MAX_MONTHS ? 'month' : 'year')
  const step = by === 'year' ? 12 : 1
  const periodOf = (instant: number) => monthOf(instant) - (by === 'year' ? monthOf(instant) % 12 : 0)
  const startOf = (months: number) => dayStart(Math.floor(months / 12), (months % 12) + 1, 1, timeZone)
  // How many dates are at or after `instant`: the first index whose date is earlier.
  const atOrAfter = (instant: number) => firstWhere(0, total, (i) => dates.get(i) < instant)
  const periods: Timeline['periods'] = []
  // From period to period with places: the next is that of the oldest date after this one, however far (dates
  // centuries apart cost no more than two periods).
  for (let months = periodOf(dates.get(total - 1)), from = startOf(months); ;) {
    const until = startOf(months + step)
    const [year, month] = [Math.floor(months / 12), (months % 12) + 1]
    const later = atOrAfter(until)
    const count = atOrAfter(from) - later
    if (count > 0) periods.push({ start: day(year, month), end: by === 'year' ? day(year, 12, 31) : day(year, month, daysInMonth(year, month)), count })
    if (later === 0) break
    months = Math.max(months + step, periodOf(dates.get(later - 1)))
    from = startOf(months)
  }
  return { unit: by, total, periods }
}

/** The dates of the places in `bbox` (or all), newest first: the index's own when the box holds every place. */
export function datesIn(index: PlaceIndex, bbox?: BBox): Column {
  if (!bbox || countPlacesIn(index, bbox) === index.size) return index.dates
  // ranksIn gives the ranks in order, and dates descend with rank.
  const ranks = ranksIn(index, bbox)
  const dates = new Float64Array(ranks.length)
  for (let i = 0; i < ranks.length; i++) dates[i] = index.dates.get(ranks[i]!)
  // One block of any length: a column read, not kept in an index.
  return new Column(dates.length ? [dates] : [])
}
