import assert from 'node:assert/strict'
import { copyFileSync, createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { ExifTool } from 'exiftool-vendored'
import { createDraft } from '../../lib/admin/posts'
import { addUser } from '../../lib/admin/users'
import { OPERATOR } from '../../lib/auth/callers'
import type { Actor } from '../../lib/auth/capabilities'
import { disconnectDb, getDb, lockTables, transaction } from '../../lib/db'
import { getAttachmentGps } from '../../lib/media/attachment-gps'
import { storeAttachment } from '../../lib/media/storage'
import { migrate } from '../../lib/migrate'
import { writeLocation } from '../../lib/places/locate'
import { readGpxTracks } from '../../lib/places/formats/xml-formats'
import { PublicLocationRule } from '../../lib/places/visibility'
import { updateSiteSettings } from '../../lib/site'
import { locateFromTrack, type TrackLocateReport } from '../../lib/trips/locate-from-track'
import { DEFAULT_MAX_GAP_MS } from '../../lib/trips/match'
import { distanceKm, roundCoordinate } from '../../lib/geo/precision'
import { acceptTripPhotos, reviewTripPhotos, type PhotoReview } from '../../lib/trips/review-photos'
import type { Track } from '../../lib/trips/track'
import { createTrip } from '../../lib/trips/trips'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// `places locate --from-track` against a real database, with real photos whose GPS was removed and a real walk
// (test/fixtures/tracks): the points where the photos were "taken" are track points held out of the track, so where
// the logger was then is known, and the photos' times are set with ExifTool as their cameras would have written them.
// This file runs on SQLite and again in a child process for PostgreSQL.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
const uploads = mkdtempSync(path.join(tmpdir(), 'places-locate-track-uploads-'))
const scratch = mkdtempSync(path.join(tmpdir(), 'places-locate-track-photos-'))
const exiftool = new ExifTool({ maxProcs: 1, writeArgs: ['-overwrite_original'] })
let editor: Actor
let walk: Track[]
/** The walk's points in time order, as [latitude, longitude, time]. */
let points: [number, number, number][]

/** Lake Cerknica is at +02:00 in August; the site's time zone says so for photos that do not. */
const TIME_ZONE = 'Europe/Ljubljana'
const BEHIND_MS = 72 * 60_000
/** Held out of the track: the points the photos were taken at. */
const HELD_OUT = [30, 40, 120, 200]

/** `2010:08:05 16:33:48`, the wall clock in Ljubljana `shift` ms after `time`. */
function exifWallClock(time: number, shift = 0): string {
  return new Date(time + shift + 2 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ').replaceAll('-', ':')
}

/** A copy of a real photo of the corpus, without its GPS, with the EXIF tags given; `gps` puts a point back. */
async function photo(name: string, corpusFile: string, tags: Record<string, string>, gps?: [number, number]): Promise<string> {
  const file = path.join(scratch, `${name}.jpg`)
  copyFileSync(path.join('test', 'fixtures', 'exif', corpusFile), file)
  await exiftool.write(file, tags, { writeArgs: ['-overwrite_original', '-gps:all='] })
  if (gps) await exiftool.write(file, { GPSLatitude: gps[0], GPSLatitudeRef: 'N', GPSLongitude: gps[1], GPSLongitudeRef: 'E' })
  return file
}

/** A draft with the photo attached: its id, and the attachment's. */
async function postWith(title: string, file: string): Promise<{ post: number; attachment: number }> {
  const post = await createDraft(editor, { title, type: 'post' })
  const { id } = await storeAttachment({ postId: post, filename: file, body: createReadStream(file) })
  return { post, attachment: id }
}

/** The walk without the held-out points, as a logger that missed them would have recorded it. */
function withoutHeldOut(tracks: Track[]): Track[] {
  const held = new Set(HELD_OUT.map((index) => points[index]![2]))
  return tracks.map((track) => {
    const keep = [...track.times.keys()].filter((i) => !held.has(track.times[i]!))
    const column = (values: Float64Array) => Float64Array.from(keep, (i) => values[i]!)
    return {
      ...track,
      latitudes: column(track.latitudes),
      longitudes: column(track.longitudes),
      times: column(track.times),
      elevations: column(track.elevations),
      segmentStarts: [0],
    }
  })
}

const photos = new Map<string, { post: number; attachment: number }>()

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  process.env.UPLOADS_DIR = uploads
  await migrate()
  editor = { id: await addUser({ id: 0, role: 'administrator' }, { email: 'editor@track.test', password: 'long enough', role: 'editor' }), role: 'editor' }
  await updateSiteSettings(OPERATOR, { timezone: TIME_ZONE })
  walk = await readGpxTracks(createReadStream(path.join('test', 'fixtures', 'tracks', 'cerknicko-jezero.gpx')))
  points = walk.flatMap((track) => [...track.times].map((time, i): [number, number, number] => [track.latitudes[i]!, track.longitudes[i]!, time]))
  points.sort((a, b) => a[2] - b[2])
  const at = (index: number) => points[index]![2]
  // A phone without a fix: right clock, one photo with its offset, one without (the site's time zone applies).
  photos.set(
    'phone at 30',
    await postWith('Phone at 30', await photo('phone-30', 'mei_Apple iPhone 4.jpg', { DateTimeOriginal: exifWallClock(at(30)), OffsetTimeOriginal: '+02:00' })),
  )
  photos.set('phone at 120', await postWith('Phone at 120', await photo('phone-120', 'mei_Apple iPhone 4.jpg', { DateTimeOriginal: exifWallClock(at(120)) })))
  // A camera 1 h 12 min behind, and one of its photos with GPS (from a GPS unit on its hot shoe) to tell it.
  const cameraAt40 = await photo('camera-40', 'mei_Nikon D5000.jpg', { DateTimeOriginal: exifWallClock(at(40), -BEHIND_MS) }, [points[40]![0], points[40]![1]])
  photos.set('camera at 40, with GPS', await postWith('Camera at 40', cameraAt40))
  photos.set(
    'camera at 200',
    await postWith('Camera at 200', await photo('camera-200', 'mei_Nikon D5000.jpg', { DateTimeOriginal: exifWallClock(at(200), -BEHIND_MS) })),
  )
  // In the logger's ten-minute pause after 15:14:11, the next day, and without a time.
  photos.set(
    'phone in the pause',
    await postWith('Phone in the pause', await photo('phone-pause', 'mei_Apple iPhone 4.jpg', { DateTimeOriginal: exifWallClock(at(224), 4 * 60_000) })),
  )
  photos.set(
    'phone the next day',
    await postWith('Phone the next day', await photo('phone-next-day', 'mei_Apple iPhone 4.jpg', { DateTimeOriginal: exifWallClock(at(30), 86_400_000) })),
  )
  photos.set('no time', await postWith('No time', path.join('test', 'fixtures', 'exif', 'exr_noexif.jpg')))
})

after(async () => {
  await exiftool.end()
  await disconnectDb()
  await database.drop()
  rmSync(uploads, { recursive: true, force: true })
  rmSync(scratch, { recursive: true, force: true })
})

const placedOf = (report: TrackLocateReport, name: string) => report.photos.find((p) => p.id === photos.get(name)!.attachment)
const attachmentOf = (name: string) =>
  getDb().attachment.findUniqueOrThrow({ where: { id: photos.get(name)!.attachment }, select: { latitude: true, longitude: true, locationSource: true } })
const postOf = (name: string) =>
  getDb().post.findUniqueOrThrow({ where: { id: photos.get(name)!.post }, select: { latitude: true, longitude: true, address: true } })

test('a dry run says what a run would do, and writes nothing', async () => {
  const report = await locateFromTrack({ tracks: withoutHeldOut(walk), postType: 'post', maxGapMs: DEFAULT_MAX_GAP_MS, dryRun: true })
  assert.equal(report.summary.placed, 3)
  assert.equal(report.posts.summary.set, 4)
  assert.deepEqual(await attachmentOf('phone at 30'), { latitude: null, longitude: null, locationSource: null })
  assert.deepEqual(await postOf('phone at 30'), { latitude: null, longitude: null, address: '' })
})

test("photos without GPS are placed within metres of where they were taken, the camera's wrong clock found from its photo with GPS", async () => {
  // One post had a location typed before: it keeps it.
  const typed = { latitude: 45.7, longitude: 14.4, address: 'By the lake' }
  await transaction(async (tx) =>
    writeLocation(tx, await PublicLocationRule.load(tx), { id: photos.get('phone at 120')!.post, title: 'Phone at 120', locationPrecision: 'exact' }, typed),
  )
  const report = await locateFromTrack({ tracks: withoutHeldOut(walk), postType: 'post', maxGapMs: DEFAULT_MAX_GAP_MS })
  const nikon = report.cameras.find((clock) => clock.camera === 'NIKON D5000')
  assert.ok(nikon && nikon.from === 'photos' && nikon.references === 1, JSON.stringify(report.cameras))
  assert.ok(Math.abs(nikon.offsetMs - BEHIND_MS) < 5_000, `found ${nikon.offsetMs / 60_000} min`)
  assert.deepEqual(
    report.cameras.find((clock) => clock.camera === 'Apple iPhone 4'),
    { camera: 'Apple iPhone 4', offsetMs: 0, from: 'none', references: 0 },
  )
  for (const [name, index] of [
    ['phone at 30', 30],
    ['phone at 120', 120],
    ['camera at 200', 200],
  ] as const) {
    const placed = placedOf(report, name)!
    assert.equal(placed.outcome, 'placed', name)
    const [latitude, longitude] = points[index]!
    const error = distanceKm({ latitude: placed.latitude!, longitude: placed.longitude! }, { latitude, longitude }) * 1000
    assert.ok(error < 10, `${name}: ${error.toFixed(1)} m from where it was taken`)
    assert.deepEqual(await attachmentOf(name), { latitude: placed.latitude, longitude: placed.longitude, locationSource: 'track' })
  }
  assert.equal(placedOf(report, 'camera at 40, with GPS'), undefined, 'a photo with GPS is not placed: it places')
  assert.equal(placedOf(report, 'phone in the pause')!.outcome, 'unsure')
  assert.deepEqual(
    ['phone the next day', 'no time'].map((name) => placedOf(report, name)!.reason),
    ['outside_track', 'no_time'],
  )
  assert.deepEqual(report.summary, {
    photos: 6,
    placed: 3,
    unsure: 1,
    skipped: 2,
    skippedBy: { no_time: 1, outside_track: 1, track_gap: 0, no_file: 0 },
    dryRun: false,
  })
  // Posts without a location take their photo's point, with an address from the gazetteer; a typed one stays.
  const post = await postOf('camera at 200')
  const attachment = await attachmentOf('camera at 200')
  assert.deepEqual([post.latitude, post.longitude], [attachment.latitude, attachment.longitude])
  assert.match(post.address, /Slovenia/)
  assert.deepEqual(await postOf('phone at 120'), typed)
  // The GPS route answers with a file's EXIF GPS alone (docs/api.md): a point from a track is none.
  await assert.rejects(getAttachmentGps(editor, photos.get('camera at 200')!.post), { code: 'rest_no_exif_gps' })
  assert.deepEqual(
    report.posts.posts.filter((p) => p.outcome === 'set').map((p) => p.title),
    ['Phone at 30', 'Camera at 200', 'Phone in the pause'],
  )
})

test('a second run places the same photos at the same points and moves no post; another clock leaves what it does not place', async () => {
  const everything = async () => ({
    posts: await getDb().post.findMany({ orderBy: { id: 'asc' }, select: { id: true, latitude: true, longitude: true, address: true } }),
    photos: await getDb().attachment.findMany({ orderBy: { id: 'asc' }, select: { id: true, latitude: true, longitude: true, locationSource: true } }),
  })
  const before = await everything()
  const again = await locateFromTrack({ tracks: withoutHeldOut(walk), postType: 'post', maxGapMs: DEFAULT_MAX_GAP_MS })
  assert.equal(again.summary.placed, 3)
  assert.equal(again.posts.summary.set, 0)
  assert.deepEqual(await everything(), before)
  // Told the clock was right, the camera's photo is an hour and 12 minutes off the walk: outside this track, so it
  // keeps the point an earlier run gave it (another day's track must not undo that day's); its post stays too.
  const told = await locateFromTrack({ tracks: withoutHeldOut(walk), postType: 'post', maxGapMs: DEFAULT_MAX_GAP_MS, cameraOffsetMs: 0 })
  assert.equal(placedOf(told, 'camera at 200')!.reason, 'outside_track')
  assert.ok(told.cameras.every((clock) => clock.from === 'given'))
  assert.deepEqual(await everything(), before)
})

test("the admin's review writes nothing, then only what its editor accepts; a photo put by hand tells its camera's clock", async () => {
  const trip = await transaction(async (tx) => {
    await lockTables(tx, ['trips'])
    return createTrip(tx, { title: 'Round the lake', tracks: withoutHeldOut(walk) })
  })
  const author: Actor = {
    id: await addUser({ id: 0, role: 'administrator' }, { email: 'author@track.test', password: 'long enough', role: 'author' }),
    role: 'author',
  }
  // A phone 30 minutes ahead, never checked against GPS: taken as right, its photos go half an hour along the walk.
  const AHEAD_MS = 30 * 60_000
  const at = (index: number) => points[index]![2]
  const nexus = (index: number) =>
    photo(`nexus-${index}`, 'mei_Nexus 4.jpg', { DateTimeOriginal: exifWallClock(at(index), AHEAD_MS), OffsetTimeOriginal: '+02:00' })
  photos.set('nexus at 80', await postWith('Nexus at 80', await nexus(80)))
  photos.set('nexus at 160', await postWith('Nexus at 160', await nexus(160)))
  const authorsPost = await createDraft(author, { title: "The author's", type: 'post' })
  const authorsFile = await photo('author-100', 'mei_Apple iPhone 4.jpg', { DateTimeOriginal: exifWallClock(at(100)), OffsetTimeOriginal: '+02:00' })
  const { id: authorsPhoto } = await storeAttachment({ postId: authorsPost, filename: authorsFile, body: createReadStream(authorsFile) })
  const ids = (review: { photos: { id: number }[] }) => review.photos.map((p) => p.id).sort((a, b) => a - b)
  const errorOf = (review: PhotoReview, name: string, index: number) => {
    const placed = review.photos.find((p) => p.id === photos.get(name)!.attachment)!
    return distanceKm({ latitude: placed.latitude!, longitude: placed.longitude! }, { latitude: points[index]![0], longitude: points[index]![1] }) * 1000
  }

  // The review shows the whole track, through any privacy zone: who keeps trips only.
  await assert.rejects(reviewTripPhotos(author, trip.id, { maxGapMs: DEFAULT_MAX_GAP_MS }), { code: 'rest_forbidden' })
  await assert.rejects(acceptTripPhotos(author, trip.id, { maxGapMs: DEFAULT_MAX_GAP_MS }, [authorsPhoto]), { code: 'rest_forbidden' })
  await assert.rejects(reviewTripPhotos(editor, 999_999, { maxGapMs: DEFAULT_MAX_GAP_MS }), { code: 'rest_trip_invalid_id' })
  const wrong = await reviewTripPhotos(editor, trip.id, { maxGapMs: DEFAULT_MAX_GAP_MS })
  assert.ok(ids(wrong).includes(authorsPhoto) && ids(wrong).includes(photos.get('nexus at 160')!.attachment))
  assert.ok(errorOf(wrong, 'nexus at 160', 160) > 500, 'a clock half an hour ahead puts the photo far along the walk')
  assert.deepEqual(await attachmentOf('nexus at 160'), { latitude: null, longitude: null, locationSource: null }, 'a review writes nothing')

  // The editor puts one photo where it was taken: the phone's clock is found from it, and the other photo goes right.
  const [latitude, longitude] = points[80]!
  const request = { maxGapMs: DEFAULT_MAX_GAP_MS, byHand: { photoId: photos.get('nexus at 80')!.attachment, latitude, longitude } }
  const review = await reviewTripPhotos(editor, trip.id, request)
  const clock = review.cameras.find((camera) => camera.from === 'hand')!
  assert.ok(Math.abs(clock.offsetMs + AHEAD_MS) < 5_000, `found ${clock.offsetMs / 60_000} min`)
  assert.ok(errorOf(review, 'nexus at 160', 160) < 10, `${errorOf(review, 'nexus at 160', 160).toFixed(1)} m`)
  const far = { ...request, byHand: { ...request.byHand, latitude: latitude + 0.01 } }
  await assert.rejects(reviewTripPhotos(editor, trip.id, far), /never passed within 50 m/)

  // A photo with GPS of its own is not placed by hand.
  const withGps = { ...request, byHand: { ...request.byHand, photoId: photos.get('camera at 40, with GPS')!.attachment } }
  await assert.rejects(reviewTripPhotos(editor, trip.id, withGps), /not one of these photos without GPS/)
  // Accepting one writes that one.
  const accepted = await acceptTripPhotos(editor, trip.id, request, [photos.get('nexus at 160')!.attachment])
  assert.deepEqual([accepted.photos, accepted.posts.set], [1, 1])
  assert.equal((await attachmentOf('nexus at 160')).locationSource, 'track')
  assert.deepEqual(await attachmentOf('nexus at 80'), { latitude: null, longitude: null, locationSource: null }, 'not accepted: not written')
  await acceptTripPhotos(editor, trip.id, request, [photos.get('nexus at 80')!.attachment])
  assert.deepEqual(await attachmentOf('nexus at 80'), { latitude: roundCoordinate(latitude), longitude: roundCoordinate(longitude), locationSource: 'hand' })
  // Placed by hand, it is the phone's reference from now on, as a photo with GPS would be.
  const later = await reviewTripPhotos(editor, trip.id, { maxGapMs: DEFAULT_MAX_GAP_MS })
  assert.equal(later.cameras.find((camera) => camera.camera === clock.camera)!.from, 'photos')
  assert.ok(!ids(later).includes(photos.get('nexus at 80')!.attachment))
})
