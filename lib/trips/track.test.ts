import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TrackBuilder, timedLine, trackStats } from './track'

function trackOf(points: [latitude: number, time: number, elevation: number][], segmentStarts: number[] = [0]) {
  const builder = new TrackBuilder()
  points.forEach(([latitude, time, elevation], i) => {
    if (segmentStarts.includes(i)) builder.segment()
    builder.add(latitude, 14, time, elevation)
  })
  return builder.build('test')
}

test('trackStats: the distance along segments, the time from first to last, the climbs past the noise', () => {
  // 0.01° of latitude is 1,111.95 m; the jump between the segments is not walked.
  const stats = trackStats(
    trackOf(
      [
        [45, 0, 100],
        [45.01, 60_000, 103],
        [45.02, 120_000, 101],
        [46, 3_600_000, 110],
        [46.01, 3_660_000, 130],
        [46.02, 3_720_000, 128],
      ],
      [0, 3],
    ),
  )
  assert.ok(Math.abs(stats.distanceM - 4 * 1111.95) < 1, String(stats.distanceM))
  assert.equal(stats.durationMs, 3_720_000)
  // Each rise summed would be 3 + 9 + 20 = 32 m; the dip of 2 m is noise: from the low of 100 m to 130 m is 30.
  assert.equal(stats.elevationGainM, 30)
  const climb = (elevations: number[]) => trackStats(trackOf(elevations.map((elevation, i) => [45, i * 1000, elevation]))).elevationGainM
  assert.equal(climb([100, 104, 101, 105, 102, 106]), 6, 'a noisy climb: its dips of 3 m do not restart it')
  assert.equal(climb([100, 110, 100, 110]), 20, 'two real climbs')
  assert.equal(climb([100, 98, 96, 94]), 0)
  assert.deepEqual(trackStats(trackOf([[45, Number.NaN, Number.NaN]])), { distanceM: 0, durationMs: null, elevationGainM: null })
})

test('timedLine: the timed points of all tracks in time order, equal times in their order, untimed left out', () => {
  const line = timedLine([
    trackOf([
      [46, 3000, 0],
      [46.1, Number.NaN, 0],
      [46.2, 4000, 0],
    ]),
    trackOf([
      [45, 1000, 0],
      [45.1, 3000, 0],
    ]),
  ])
  assert.deepEqual([...line.times], [1000, 3000, 3000, 4000])
  assert.deepEqual([...line.latitudes], [45, 46, 45.1, 46.2])
})
