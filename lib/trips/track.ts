import { distanceKm } from '../geo/precision'

// A track: the line a GPS logger recorded (a GPX <trk>), or a planned route (<rte>), as Places reads it from a file.
// Positions are kept in typed arrays, a column each, so that a track of 100,000 points is five arrays, not 100,000
// objects; a time or an elevation a point lacks is NaN.

export type Track = {
  name: string
  latitudes: Float64Array
  longitudes: Float64Array
  /** milliseconds since the epoch; NaN where the point has no time (a route's points never have one) */
  times: Float64Array
  /** metres; NaN where the point has none */
  elevations: Float64Array
  /** the index of each segment's first point: a logger starts a segment where it lost its fix or was paused */
  segmentStarts: number[]
}

/** Builds a Track a point at a time, as a reader meets them. */
export class TrackBuilder {
  private readonly columns = { latitudes: [] as number[], longitudes: [] as number[], times: [] as number[], elevations: [] as number[] }
  private readonly segmentStarts: number[] = []
  private segmentOpen = false

  /** Begins a segment: the next point added starts it. */
  segment(): void {
    this.segmentOpen = false
  }

  add(latitude: number, longitude: number, time = Number.NaN, elevation = Number.NaN): void {
    if (!this.segmentOpen) this.segmentStarts.push(this.columns.latitudes.length)
    this.segmentOpen = true
    this.columns.latitudes.push(latitude)
    this.columns.longitudes.push(longitude)
    this.columns.times.push(time)
    this.columns.elevations.push(elevation)
  }

  get size(): number {
    return this.columns.latitudes.length
  }

  build(name: string): Track {
    const { latitudes, longitudes, times, elevations } = this.columns
    return {
      name,
      latitudes: Float64Array.from(latitudes),
      longitudes: Float64Array.from(longitudes),
      times: Float64Array.from(times),
      elevations: Float64Array.from(elevations),
      segmentStarts: [...this.segmentStarts],
    }
  }
}

/**
 * The timed points of all `tracks`, as one line ordered by time: what photos are placed against. Points without a
 * time are left out; points of equal time keep their order. A logger's clock never runs backwards, but two tracks of
 * one trip may overlap, and a file may list its tracks in any order.
 */
export type TimedLine = { latitudes: Float64Array; longitudes: Float64Array; times: Float64Array }

export function timedLine(tracks: readonly Track[]): TimedLine {
  const count = tracks.reduce((sum, { times }) => sum + times.reduce((timed, time) => timed + (Number.isNaN(time) ? 0 : 1), 0), 0)
  const all = { latitudes: new Float64Array(count), longitudes: new Float64Array(count), times: new Float64Array(count) }
  let at = 0
  for (const track of tracks) {
    for (let i = 0; i < track.times.length; i++) {
      if (Number.isNaN(track.times[i]!)) continue
      ;[all.latitudes[at], all.longitudes[at], all.times[at]] = [track.latitudes[i]!, track.longitudes[i]!, track.times[i]!]
      at++
    }
  }
  // Almost always in order already; else sorted by an index (stable: points of equal time keep their order).
  if (all.times.every((time, i) => i === 0 || all.times[i - 1]! <= time)) return all
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => all.times[a]! - all.times[b]!)
  return {
    latitudes: Float64Array.from(order, (i) => all.latitudes[i]!),
    longitudes: Float64Array.from(order, (i) => all.longitudes[i]!),
    times: Float64Array.from(order, (i) => all.times[i]!),
  }
}

/** Climbs and descents smaller than this are a GPS's elevation noise, not the ground: they are not counted. */
const CLIMB_NOISE_M = 5

/** What is said of a track: how far, how long, how much climbed. */
export type TrackStats = {
  /** metres along each segment; the gaps between segments (the logger was off) are not counted */
  distanceM: number
  /** from the earliest timed point to the latest, in ms; null without two times */
  durationMs: number | null
  /** metres climbed, rises and dips under CLIMB_NOISE_M taken as noise; null without elevations */
  elevationGainM: number | null
}

export function trackStats(track: Track): TrackStats {
  const { latitudes, longitudes, times, elevations, segmentStarts } = track
  let distanceM = 0
  const starts = new Set(segmentStarts)
  for (let i = 1; i < latitudes.length; i++) {
    if (!starts.has(i))
      distanceM += distanceKm({ latitude: latitudes[i - 1]!, longitude: longitudes[i - 1]! }, { latitude: latitudes[i]!, longitude: longitudes[i]! }) * 1000
  }
  let [first, last] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (const time of times) if (!Number.isNaN(time)) [first, last] = [Math.min(first, time), Math.max(last, time)]
  // Hysteresis: a climb counts once it rises CLIMB_NOISE_M above the last low, and then up to each new high; it
  // ends only when the ground falls CLIMB_NOISE_M below its high. Smaller wobbles either way are the GPS's noise.
  let gain: number | null = null
  let [low, high, climbing] = [Number.NaN, Number.NaN, false]
  for (const elevation of elevations) {
    if (Number.isNaN(elevation)) continue
    if (gain === null) [gain, low] = [0, elevation]
    else if (climbing) {
      if (elevation > high) [gain, high] = [gain + elevation - high, elevation]
      else if (high - elevation >= CLIMB_NOISE_M) [climbing, low] = [false, elevation]
    } else if (elevation < low) low = elevation
    else if (elevation - low >= CLIMB_NOISE_M) [gain, high, climbing] = [gain + elevation - low, elevation, true]
  }
  return { distanceM, durationMs: last > first ? last - first : null, elevationGainM: gain }
}

/** What is said of tracks together: metres along them, metres climbed, and their first and last times. */
export type TracksFigures = { distanceMetres: number; climbMetres: number | null; startedAt: Date | null; endedAt: Date | null }

export function tracksFigures(tracks: readonly Track[]): TracksFigures {
  let [distanceMetres, climbMetres, first, last] = [0, null as number | null, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (const track of tracks) {
    const stats = trackStats(track)
    distanceMetres += stats.distanceM
    if (stats.elevationGainM !== null) climbMetres = (climbMetres ?? 0) + stats.elevationGainM
    for (const time of track.times) if (!Number.isNaN(time)) [first, last] = [Math.min(first, time), Math.max(last, time)]
  }
  const when = (ms: number) => (Number.isFinite(ms) ? new Date(ms) : null)
  return {
    distanceMetres: Math.round(distanceMetres),
    climbMetres: climbMetres === null ? null : Math.round(climbMetres),
    startedAt: when(first),
    endedAt: when(last),
  }
}

/**
 * A track as the database keeps it whole (trip_tracks.points): 64-bit floats in the machine's byte order (little-endian on x86 and ARM): the point count, the
 * segment count, each segment's start, then the latitudes, longitudes, times and elevations, a column each.
 */
export function packTrack(track: Track): Uint8Array<ArrayBuffer> {
  const count = track.latitudes.length
  const starts = track.segmentStarts
  const all = new Float64Array(2 + starts.length + 4 * count)
  all.set([count, starts.length, ...starts])
  let at = 2 + starts.length
  for (const column of [track.latitudes, track.longitudes, track.times, track.elevations]) {
    all.set(column, at)
    at += count
  }
  return new Uint8Array(all.buffer)
}

/** The track packTrack packed. */
export function unpackTrack(name: string, bytes: Uint8Array): Track {
  // Copied to an aligned buffer: a driver's Buffer may begin at any byte of a shared pool.
  const all = new Float64Array(Uint8Array.from(bytes).buffer)
  const [count, segments] = [all[0]!, all[1]!]
  const starts = Array.from(all.subarray(2, 2 + segments))
  const column = (k: number) => all.slice(2 + segments + k * count, 2 + segments + (k + 1) * count)
  return { name, latitudes: column(0), longitudes: column(1), times: column(2), elevations: column(3), segmentStarts: starts }
}
