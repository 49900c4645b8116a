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
  const points: { track: Track; index: number }[] = []
  for (const track of tracks) for (let index = 0; index < track.times.length; index++) if (!Number.isNaN(track.times[index]!)) points.push({ track, index })
  points.sort((a, b) => a.track.times[a.index]! - b.track.times[b.index]!)
  const line = { latitudes: new Float64Array(points.length), longitudes: new Float64Array(points.length), times: new Float64Array(points.length) }
  points.forEach(({ track, index }, at) => {
    line.latitudes[at] = track.latitudes[index]!
    line.longitudes[at] = track.longitudes[index]!
    line.times[at] = track.times[index]!
  })
  return line
}
