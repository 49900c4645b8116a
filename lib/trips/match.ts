import { EARTH_RADIUS_KM, wrapLongitude } from '../geo/precision'
import type { TimedLine } from './track'

// Photos placed by the time they were taken (docs/trips.md): a photo's time, corrected by its camera's clock offset,
// is found on a track's timeline and given the point between the two track points either side of it.

/** A photo this close in time to the track points either side is placed for sure: a logger records every few seconds. */
export const SURE_GAP_MS = 60_000
/** Past this gap to a track point a photo is not placed, unless told otherwise (--max-gap). */
export const DEFAULT_MAX_GAP_MS = 10 * 60_000

export type Placement =
  | { placed: true; latitude: number; longitude: number; gapMs: number; confidence: 'sure' | 'likely' }
  | { placed: false; gapMs: number; reason: 'outside_track' | 'track_gap' }

/** The index of the first point of `line` at or after `time` (its length when none is). */
function firstAtOrAfter(times: Float64Array, time: number): number {
  let low = 0
  let high = times.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (times[middle]! < time) low = middle + 1
    else high = middle
  }
  return low
}

/** The point a fraction `f` of the way from a to b, the short way round across the antimeridian. */
function between(line: TimedLine, a: number, b: number, f: number): { latitude: number; longitude: number } {
  const lonA = line.longitudes[a]!
  let lonB = line.longitudes[b]!
  if (lonB - lonA > 180) lonB -= 360
  else if (lonA - lonB > 180) lonB += 360
  return { latitude: line.latitudes[a]! + (line.latitudes[b]! - line.latitudes[a]!) * f, longitude: wrapLongitude(lonA + (lonB - lonA) * f) }
}

/**
 * Where `line` was at `time`: between the track points either side, in proportion to the time (a walker's or a
 * car's speed changes little in a logger's few seconds), and how sure that is by the time to the further of them:
 * across a pause of the logger, the speed in between is a guess, however near one end is. Before the first point or
 * after the last the line's end is taken, if it is near enough in time, as unsure; past `maxGapMs` it is not placed:
 * outside the track, or in a gap of it (the logger was off).
 */
export function placeAt(line: TimedLine, time: number, maxGapMs = DEFAULT_MAX_GAP_MS): Placement {
  const { times } = line
  const count = times.length
  if (count === 0 || !Number.isFinite(time)) return { placed: false, gapMs: Number.POSITIVE_INFINITY, reason: 'outside_track' }
  const next = firstAtOrAfter(times, time)
  const placed = (point: { latitude: number; longitude: number }, gapMs: number, sure = gapMs <= SURE_GAP_MS): Placement => ({
    placed: true,
    ...point,
    gapMs,
    confidence: sure ? 'sure' : 'likely',
  })
  if (times[next] === time) return placed({ latitude: line.latitudes[next]!, longitude: line.longitudes[next]! }, 0)
  if (next === 0 || next === count) {
    // Before the logger started or after it stopped, where it was is a guess however near: never sure.
    const end = next === 0 ? 0 : count - 1
    const gapMs = Math.abs(time - times[end]!)
    if (gapMs > maxGapMs) return { placed: false, gapMs, reason: 'outside_track' }
    return placed({ latitude: line.latitudes[end]!, longitude: line.longitudes[end]! }, gapMs, false)
  }
  const before = next - 1
  const gapMs = Math.max(time - times[before]!, times[next]! - time)
  if (gapMs > maxGapMs) return { placed: false, gapMs, reason: 'track_gap' }
  const span = times[next]! - times[before]!
  return placed(between(line, before, next, span === 0 ? 0 : (time - times[before]!) / span), gapMs)
}

/** How far from the track a photo with GPS may be for its time there to be trusted: a phone's fix and a logger's. */
export const MAX_REFERENCE_DISTANCE_M = 50
/** A passing of the track this much further from the point than the nearest is as good as it: GPS is no closer than that. */
const SAME_DISTANCE_M = 15

/**
 * When `line` passed the point, found by the track's step nearest to it, projected on that step: the time a camera's
 * clock should have shown for a photo taken there. Where the track passes as near more than once (there and back),
 * the passing nearest in time to `cameraTime` is taken. Null when it never came within MAX_REFERENCE_DISTANCE_M.
 */
export function timeAtPoint(line: TimedLine, latitude: number, longitude: number, cameraTime: number): { time: number; distanceM: number } | null {
  const { latitudes, longitudes, times } = line
  // Flat metres about the point: a track's step is short enough for the plane to be exact to centimetres.
  const metresPerDegree = (Math.PI / 180) * EARTH_RADIUS_KM * 1000
  const xScale = metresPerDegree * Math.cos((latitude * Math.PI) / 180)
  const x = (i: number) => {
    let dLon = longitudes[i]! - longitude
    if (dLon > 180) dLon -= 360
    else if (dLon < -180) dLon += 360
    return dLon * xScale
  }
  const y = (i: number) => (latitudes[i]! - latitude) * metresPerDegree
  // A passing is a run of the track's steps within reach of the point; each is as near as its nearest step.
  const passings: { time: number; distanceM: number }[] = []
  let inReach = false
  // A step with both ends beyond reach to the north, or both to the south, cannot come near: most steps, skipped cheaply.
  const reach = MAX_REFERENCE_DISTANCE_M / metresPerDegree
  for (let i = 0; i < times.length; i++) {
    const j = Math.min(i + 1, times.length - 1)
    const [northI, northJ] = [latitudes[i]! - latitude, latitudes[j]! - latitude]
    if ((northI > reach && northJ > reach) || (northI < -reach && northJ < -reach)) {
      inReach = false
      continue
    }
    const [ax, ay, bx, by] = [x(i), y(i), x(j), y(j)]
    const length2 = (bx - ax) ** 2 + (by - ay) ** 2
    const f = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / length2))
    const distanceM = Math.hypot(ax + f * (bx - ax), ay + f * (by - ay))
    // A step from a point out of reach begins another passing, even when the step before came within reach.
    const cameBack = !inReach || Math.hypot(ax, ay) > MAX_REFERENCE_DISTANCE_M
    inReach = distanceM <= MAX_REFERENCE_DISTANCE_M
    if (!inReach) continue
    const step = { time: times[i]! + f * (times[j]! - times[i]!), distanceM }
    if (cameBack) passings.push(step)
    else if (distanceM < passings.at(-1)!.distanceM) passings[passings.length - 1] = step
  }
  if (passings.length === 0) return null
  const nearest = passings.reduce((least, passing) => Math.min(least, passing.distanceM), Number.POSITIVE_INFINITY)
  const asNear = passings.filter((passing) => passing.distanceM <= nearest + SAME_DISTANCE_M)
  return asNear.reduce((best, passing) => (Math.abs(passing.time - cameraTime) < Math.abs(best.time - cameraTime) ? passing : best))
}

/** The median of numbers (not empty): one photo taken as the track passed twice does not pull the rest. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** `+01:12`, `-00:30:15`, `+2:00`: a camera's clock offset, what is added to its times, in milliseconds; null if not one. */
export function parseClockOffset(text: string): number | null {
  const match = /^([+-])?(\d{1,3}):([0-5]\d)(?::([0-5]\d))?$/.exec(text.trim())
  if (!match) return null
  const [, sign, hours, minutes, seconds = '0'] = match
  const ms = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000
  return sign === '-' ? -ms : ms
}

/** `+01:12:05` for an offset in milliseconds (rounded to the second). */
export function formatClockOffset(ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const text = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}`
  return `${ms < 0 ? '-' : '+'}${text}${seconds % 60 === 0 ? '' : `:${pad(seconds % 60)}`}`
}

/** `10m`, `90s`, `1h`, `1h30m`: a duration, in milliseconds; null if not one. */
export function parseDuration(text: string): number | null {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim())
  if (!match || text.trim() === '') return null
  const [, hours = '0', minutes = '0', seconds = '0'] = match
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000
}

/** "12 s", "4 min 10 s", "2 h 5 min", "219 days": a gap in time as people say it. */
export function describeGap(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min${seconds % 60 ? ` ${seconds % 60} s` : ''}`
  const minutes = Math.round(seconds / 60)
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`
  return `${Math.round(minutes / 1440)} days`
}

/** A camera's clock as the command and the admin's review tell it. */
export function describeClock(clock: { camera: string; offsetMs: number; from: 'given' | 'photos' | 'hand' | 'none'; references: number }): string {
  const name = clock.camera ? `Camera “${clock.camera}”` : 'Photos that name no camera'
  const off = `clock off by ${formatClockOffset(clock.offsetMs)}`
  if (clock.from === 'photos') return `${name}: ${off}, found from ${clock.references} photo${clock.references === 1 ? '' : 's'} with GPS on the track`
  if (clock.from === 'hand') return `${name}: ${off}, found from the photo placed by hand`
  if (clock.from === 'given') return `${name}: ${off}, as told`
  return `${name}: no photo with GPS on the track to check its clock by: taken as right`
}

/** Why a photo was not placed, for people: `trackFrom` is when the track starts (ms). */
export function describeSkip(
  photo: { reason?: 'no_time' | 'outside_track' | 'track_gap' | 'no_file'; gapMs?: number; time?: string },
  trackFrom: number,
): string {
  const gap = photo.gapMs ?? 0
  switch (photo.reason) {
    case 'no_time':
      return 'no time in its EXIF'
    case 'no_file':
      return 'its file is missing from the store'
    case 'outside_track':
      return `taken ${describeGap(gap)} ${Date.parse(photo.time ?? '') < trackFrom ? 'before the track starts' : 'after it ends'}`
    default:
      return `in a gap of the track: ${describeGap(gap)} from a track point either side`
  }
}
