import assert from 'node:assert/strict'
import { createReadStream } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { readGpxTracks, readKmlTracks } from '../places/formats/xml-formats'
import { describeGap, formatClockOffset, median, parseClockOffset, parseDuration, placeAt, timeAtPoint } from './match'
import { distanceKm } from '../geo/precision'
import { timedLine, type TimedLine } from './track'

const TRACKS = path.join('test', 'fixtures', 'tracks')
const read = (file: string) => readGpxTracks(createReadStream(path.join(TRACKS, file)))

/** The line's points whose index `keep` keeps. */
function thinned(line: TimedLine, keep: (index: number) => boolean): TimedLine {
  const kept = [...line.times.keys()].filter(keep)
  return {
    latitudes: Float64Array.from(kept, (i) => line.latitudes[i]!),
    longitudes: Float64Array.from(kept, (i) => line.longitudes[i]!),
    times: Float64Array.from(kept, (i) => line.times[i]!),
  }
}

test('readGpxTracks: a real walk: its tracks, points, times and elevations in the file’s order', async () => {
  const tracks = await read('cerknicko-jezero.gpx')
  assert.deepEqual(
    tracks.map((track) => [track.name, track.latitudes.length]),
    [
      ['ACTIVE LOG', 0 + 0],
      ['ACTIVE LOG #2', 173],
      ['ACTIVE LOG #3', 52],
      ['ACTIVE LOG #4', 2],
      ['ACTIVE LOG #5', 44],
      ['ACTIVE LOG #6', 2],
      ['ACTIVE LOG #7', 2],
      ['ACTIVE LOG #8', 21],
    ].filter(([, count]) => count !== 0),
  )
  const [first] = tracks
  assert.equal(first!.latitudes[0], 45.772175035)
  assert.equal(first!.longitudes[0], 14.357659249)
  assert.equal(first!.times[0], Date.parse('2010-08-05T14:23:59Z'))
  assert.equal(first!.elevations[0], 542.320923)
  assert.ok(tracks.every((track) => track.times.every((time) => !Number.isNaN(time))))
})

test('readGpxTracks: points without a time keep their place, with NaN; a route has no times; waypoints are not tracks', async () => {
  const tracks = await read('korita-zbevnica.gpx')
  const points = tracks.flatMap((track) => [...track.times])
  assert.equal(points.length, 871)
  assert.equal(points.filter((time) => !Number.isNaN(time)).length, 513)
  assert.equal(timedLine(tracks).times.length, 513)
  const gpx = `<?xml version="1.0"?><gpx version="1.1"><wpt lat="1" lon="2"><name>W</name></wpt>
    <rte><name>Plan</name><rtept lat="45.1" lon="14.1"><ele>10</ele><time>2010-01-01T00:00:00Z</time></rtept><rtept lat="45.2" lon="14.2"/></rte>
    <trk><trkseg><trkpt lat="45" lon="14"><time>2010-01-01T10:00:00</time></trkpt></trkseg><trkseg><trkpt lat="46" lon="15"/><trkpt lat="99" lon="15"/></trkseg></trk></gpx>`
  const [route, track, ...rest] = await readGpxTracks([Buffer.from(gpx)])
  assert.equal(rest.length, 0, 'the waypoint is no track')
  assert.equal(route!.name, 'Plan')
  assert.deepEqual([...route!.times].map(Number.isNaN), [true, true], 'a route is a plan: no times, even where given')
  assert.deepEqual([...route!.elevations], [10, Number.NaN])
  assert.deepEqual(track!.segmentStarts, [0, 1], 'each trkseg starts a segment; the point out of range is left out')
  assert.equal(track!.times[0], Date.parse('2010-01-01T10:00:00Z'), 'a GPX time without a zone is UTC')
})

test('readKmlTracks: a real My Tracks recording: its gx:Track with times; its start and end points are no track', async () => {
  const [walk, ...rest] = await readKmlTracks(createReadStream(path.join(TRACKS, 'my-tracks-ghent.kml')))
  assert.equal(rest.length, 0)
  assert.equal(walk!.name, '8/8/2013 17:20')
  assert.equal(walk!.latitudes.length, 16)
  assert.deepEqual([walk!.longitudes[0], walk!.latitudes[0], walk!.elevations[0]], [3.68217, 51.050583, 54.599998474121094])
  assert.deepEqual([walk!.times[0], walk!.times.at(-1)], [Date.parse('2013-08-08T15:24:47Z'), Date.parse('2013-08-08T15:25:03Z')])
  const kml = `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>Planned</name><LineString><coordinates>
    14,45,100 14.1,45.1 200,45</coordinates></LineString></Placemark></kml>`
  const [planned] = await readKmlTracks([Buffer.from(kml)])
  assert.equal(planned!.name, 'Planned')
  assert.deepEqual([...planned!.longitudes], [14, 14.1], 'a position out of range is left out')
  assert.ok(planned!.times.every(Number.isNaN), 'a LineString has no times')
})

test('placeAt: points held out of a real walk are placed within metres of where the logger recorded them', async () => {
  const line = timedLine(await read('cerknicko-jezero.gpx'))
  // Every other point is a photo taken then; the track keeps the rest.
  const track = thinned(line, (i) => i % 2 === 0)
  const errors: number[] = []
  for (let i = 1; i < line.times.length; i += 2) {
    const placement = placeAt(track, line.times[i]!)
    if (placement.placed && placement.confidence === 'sure')
      errors.push(distanceKm(placement, { latitude: line.latitudes[i]!, longitude: line.longitudes[i]! }) * 1000)
  }
  assert.ok(errors.length >= 130, `${errors.length} of 148 placed for sure`)
  assert.ok(median(errors) < 2, `median ${median(errors).toFixed(1)} m`)
  // The rest is the logger's own noise: a fix that jumps 180 m in 2 s.
  const within10 = errors.filter((error) => error <= 10).length / errors.length
  assert.ok(within10 >= 0.9, `${(within10 * 100).toFixed(0)}% within 10 m`)
})

test('placeAt: sure within a minute of the points either side, likely within the limit, and not placed past it', () => {
  const minute = 60_000
  const line = { latitudes: Float64Array.of(45, 45, 46), longitudes: Float64Array.of(14, 15, 15), times: Float64Array.of(0, 2 * minute, 30 * minute) }
  const at = (time: number, maxGap?: number) => placeAt(line, time, maxGap)
  assert.deepEqual(at(minute), { placed: true, latitude: 45, longitude: 14.5, gapMs: minute, confidence: 'sure' })
  assert.deepEqual(at(0), { placed: true, latitude: 45, longitude: 14, gapMs: 0, confidence: 'sure' })
  assert.deepEqual(at(minute / 2), { placed: true, latitude: 45, longitude: 14.25, gapMs: 1.5 * minute, confidence: 'likely' })
  // In the 28-minute pause: 5 minutes after a point is 23 before the next.
  assert.deepEqual(at(7 * minute), { placed: false, gapMs: 23 * minute, reason: 'track_gap' })
  assert.equal(at(7 * minute, 30 * minute).placed, true, '--max-gap 30m')
  assert.deepEqual(at(-4 * minute), { placed: true, latitude: 45, longitude: 14, gapMs: 4 * minute, confidence: 'likely' }, 'before the start: its first point')
  const justBefore = at(-10_000)
  assert.ok(justBefore.placed && justBefore.confidence === 'likely', 'before the logger started: never sure, however near')
  assert.equal(at(Number.NaN).placed, false)
  assert.deepEqual(at(41 * minute), { placed: false, gapMs: 11 * minute, reason: 'outside_track' })
  assert.deepEqual(placeAt({ latitudes: new Float64Array(), longitudes: new Float64Array(), times: new Float64Array() }, 0), {
    placed: false,
    gapMs: Number.POSITIVE_INFINITY,
    reason: 'outside_track',
  })
})

test('placeAt: across the antimeridian the point is between, not half the world away', () => {
  const line = { latitudes: Float64Array.of(-17, -17), longitudes: Float64Array.of(179.9, -179.9), times: Float64Array.of(0, 20_000) }
  const placement = placeAt(line, 5_000)
  assert.ok(placement.placed)
  assert.ok(Math.abs(placement.longitude - 179.95) < 1e-9, String(placement.longitude))
  const back = placeAt({ ...line, longitudes: Float64Array.of(-179.9, 179.9) }, 15_000)
  assert.ok(back.placed && Math.abs(back.longitude - 179.95) < 1e-9, String(back.placed && back.longitude))
})

test('timeAtPoint: a camera 1 h 12 min behind is found from its photo with GPS on a real walk', async () => {
  const line = timedLine(await read('cerknicko-jezero.gpx'))
  const track = thinned(line, (i) => i !== 100)
  const behind = 72 * 60_000
  const found = timeAtPoint(track, line.latitudes[100]!, line.longitudes[100]!, line.times[100]! - behind)
  assert.ok(found, 'the walk passed the photo')
  assert.ok(found.distanceM < 10, `${found.distanceM} m from the track`)
  // The walker stood there from 14:52:02 to 14:52:23 (to take the photo, say): any time of the stop is as true.
  const error = found.time - line.times[100]!
  assert.ok(Math.abs(error) < 22_000, `found ${formatClockOffset(behind + error)}`)
  assert.equal(timeAtPoint(track, 46.5, 14.36, line.times[100]!), null, 'a point the walk never came near tells nothing')
})

test('timeAtPoint: where the track passes twice, the passing nearer the camera’s time', () => {
  const hour = 3_600_000
  // Out along a road and back: past the point at half past, to the end of the road at one, past it again at half past one.
  const line = {
    latitudes: Float64Array.of(45, 45, 45, 45, 45),
    longitudes: Float64Array.of(14, 14.005, 14.05, 14.005, 14),
    times: Float64Array.of(0, 0.5 * hour, hour, 1.5 * hour, 2 * hour),
  }
  const near = (found: { time: number } | null, time: number) => assert.ok(found && Math.abs(found.time - time) < 1, String(found?.time))
  near(timeAtPoint(line, 45, 14.005, 0.4 * hour), 0.5 * hour)
  near(timeAtPoint(line, 45, 14.005, 1.7 * hour), 1.5 * hour)
})

test('clock offsets and gaps as people type them', () => {
  assert.equal(parseClockOffset('+01:12'), 72 * 60_000)
  assert.equal(parseClockOffset('-00:30:15'), -(30 * 60 + 15) * 1000)
  assert.equal(parseClockOffset('2:00'), 2 * 3_600_000)
  for (const bad of ['', '+1', '01:60', '+01:12:61', '1h', '+01:12x', '++01:12']) assert.equal(parseClockOffset(bad), null, bad)
  assert.equal(parseClockOffset(' +01:12 '), 72 * 60_000, 'spaces around are no mistake')
  assert.equal(formatClockOffset(72 * 60_000), '+01:12')
  assert.equal(formatClockOffset(-(30 * 60 + 15) * 1000), '-00:30:15')
  assert.equal(parseDuration('10m'), 600_000)
  assert.equal(parseDuration('1h30m'), 5_400_000)
  assert.equal(parseDuration('90s'), 90_000)
  for (const bad of ['', '10', 'm', '10 m', '-5m']) assert.equal(parseDuration(bad), null, bad)
  assert.deepEqual([12_000, 250_000, 7_500_000, 18_919_920_000].map(describeGap), ['12 s', '4 min 10 s', '2 h 5 min', '219 days'])
})
