// Dates in the site's time zone (README, "Site settings"): stored and sent as UTC instants, shown and typed as the
// wall-clock time of the zone. Pure, for the server and the editor in the browser alike.

const formats = new Map<string, Intl.DateTimeFormat>()

/** The wall-clock fields of `instant` in `timeZone`, as numbers. */
function wallClock(instant: number, timeZone: string) {
  let format = formats.get(timeZone)
  if (!format) {
    const options = { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' } as const
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone })
    } catch {
      // A browser older than the server may not know a zone it offered: UTC rather than an editor that fails to draw.
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' })
    }
    formats.set(timeZone, format)
  }
  const parts: Record<string, number> = {}
  for (const part of format.formatToParts(instant)) if (part.type !== 'literal') parts[part.type] = Number(part.value)
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>
}

/** A wall clock read as UTC, in milliseconds since 1970 (Date.UTC would take the years 0 to 99 for 1900 to 1999). */
const utc = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number =>
  new Date(0).setUTCFullYear(year, month - 1, day) + ((hour * 60 + minute) * 60 + second) * 1000

/** The offset of `timeZone` from UTC at `instant`, in minutes (330 for Asia/Kolkata). */
export function offsetMinutes(instant: Date | number, timeZone: string): number {
  const time = Math.floor(Number(instant) / 1000) * 1000
  const { year, month, day, hour, minute, second } = wallClock(time, timeZone)
  return Math.round((utc(year, month, day, hour, minute, second) - time) / 60_000)
}

/** `n` with leading zeros to `width` digits: 05, 0050. */
export const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** How many days a month has (1 to 12), in the proleptic Gregorian calendar. */
export const daysInMonth = (year: number, month: number): number => new Date(new Date(0).setUTCFullYear(year, month, 0)).getUTCDate()

/** The month of `instant` in `timeZone`, counted from January of year 0: year × 12 + month − 1. */
export function zonedMonth(instant: number, timeZone: string): number {
  const { year, month } = wallClock(instant, timeZone)
  return year * 12 + month - 1
}

/** The first millisecond of a day (month 1 to 12; a day past the month's end rolls over) in `timeZone`. */
export function dayStart(year: number, month: number, day: number, timeZone: string): number {
  const wall = utc(year, month, day)
  return wall - wallClockOffset(wall, timeZone) * 60_000
}

/** `date` as the zone's wall clock, `2026-12-05T22:30:00`: what `<input type="datetime-local" step="1">` shows. */
export function zonedDateTime(date: Date, timeZone: string): string {
  const { year, month, day, hour, minute, second } = wallClock(date.getTime(), timeZone)
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`
}

/** `date` to the minute in the zone, `2026-12-05 22:30`, as the admin's lists show times (the zone in the heading). */
export function wallMinute(date: Date | string, timeZone: string): string {
  return zonedDateTime(new Date(date), timeZone).slice(0, 16).replace('T', ' ')
}

/** `date` to the minute in the zone, named: `2026-12-05 22:30 Europe/Berlin`, as the admin's sentences say times. */
export function formatMinute(date: Date | string, timeZone: string): string {
  return `${wallMinute(date, timeZone)} ${timeZone}`
}

const DAY_MS = 86_400_000

/**
 * The offset of `timeZone` when its wall clock shows `wall` (that wall clock read as UTC, in milliseconds), in minutes:
 * of the offsets a day either side, the one under which the clock shows `wall`; the earlier instant when both do (the
 * hour a change back to winter time repeats); the offset before the change when neither does (the hour a change to
 * summer time skips, east or west of UTC, midnight included).
 */
function wallClockOffset(wall: number, timeZone: string): number {
  const [before, after] = [offsetMinutes(wall - DAY_MS, timeZone), offsetMinutes(wall + DAY_MS, timeZone)]
  if (before === after) return before
  const shows = (offset: number) => offsetMinutes(wall - offset * 60_000, timeZone) === offset
  return shows(before) || !shows(after) ? before : after
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?$/

/**
 * A date or date-time typed without a zone (`2026-12-05T22:30`), with the offset `timeZone` has then appended
 * (`…+01:00`): the instant the wall clock shows there. Anything else is given back as it is, for the date's own
 * check to judge. A time that a change to summer time skips is taken with the offset before the change.
 */
export function withZoneOffset(text: string, timeZone: string): string {
  const match = WALL_CLOCK.exec(text)
  if (!match) return text
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = ''] = match
  const offset = wallClockOffset(utc(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)), timeZone)
  const sign = offset < 0 ? '-' : '+'
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * The whole milliseconds a date or an RFC 3339 date-time names, as [first, last]: a date (`2024-05-01`) its whole day
 * in `timeZone` (23 or 25 hours on a change of offset); a date-time its instant, in `timeZone` when it has no offset.
 * Places' dates are whole milliseconds: a date-time between two (`…:00.0005`, whose last digits Date.parse drops)
 * names none, and its first is then past its last. NaN for text that is neither.
 */
export function spanOf(text: string, timeZone: string): [first: number, last: number] {
  const date = DATE.exec(text)
  if (date) {
    const [year, month, day] = [Number(date[1]), Number(date[2]), Number(date[3])]
    return [dayStart(year, month, day, timeZone), dayStart(year, month, day + 1, timeZone) - 1]
  }
  const at = Date.parse(withZoneOffset(text, timeZone))
  return [/\.\d{3}\d*[1-9]/.test(text) ? at + 1 : at, at]
}
