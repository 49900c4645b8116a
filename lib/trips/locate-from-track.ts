import 'server-only'
import { OPERATOR } from '../auth/callers'
import { getDb, transaction, type Tx } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { getGazetteer } from '../geo/gazetteer'
import { roundCoordinate } from '../geo/precision'
import { instantOf, readPhotoFacts, type PhotoFacts } from '../media/exif-time'
import { mediaStore } from '../media/store'
import { BATCH_TIMEOUT_MS, locateBatch, summarise, type LocateReport, type LocatedPost } from '../places/locate'
import { getSiteSettings } from '../site'
import { median, placeAt, timeAtPoint } from './match'
import { timedLine, trackStats, type TimedLine, type Track } from './track'

// `places locate --from-track FILE.gpx` (docs/trips.md): each photo without GPS of the site's posts is placed where
// the track was when it was taken, its camera's clock corrected; then each post without a location takes its first
// photo's point, as `locate --from-media` sets it. A photo placed so records it (attachments.location_source 'track');
// a later run places it again where its track places it (another offset moves it), and leaves it where another
// track placed it (a run with the next day's track must not undo this one's).

export type TrackSkipReason = 'no_time' | 'outside_track' | 'track_gap' | 'no_file'

export type TrackPhoto = {
  id: number
  postId: number
  title: string
  camera: string
  /** placed: sure (seconds from a track point); unsure: likely (minutes), placed all the same; skipped: see reason */
  outcome: 'placed' | 'unsure' | 'skipped'
  reason?: TrackSkipReason
  /** the photo's time, its camera's clock corrected (ISO 8601, UTC) */
  time?: string
  latitude?: number
  longitude?: number
  /** milliseconds to the further of the track points either side (to the track's end, before or after it) */
  gapMs?: number
}

/** A camera's clock: what is added to its photos' times, told (--camera-offset), found from its photos with GPS, or none. */
export type CameraClock = { camera: string; offsetMs: number; from: 'given' | 'photos' | 'none'; references: number }

export type TrackLocateSummary = {
  photos: number
  placed: number
  unsure: number
  skipped: number
  skippedBy: Record<TrackSkipReason, number>
  dryRun: boolean
}

/** What the file held: its tracks and points, the time its timed points span (ISO 8601), how far and how much climbed. */
export type TrackSummary = { tracks: number; points: number; timedPoints: number; from: string; to: string; distanceM: number; elevationGainM: number | null }

export type TrackLocateReport = { track: TrackSummary; summary: TrackLocateSummary; cameras: CameraClock[]; photos: TrackPhoto[]; posts: LocateReport }

export type TrackLocateOptions = {
  tracks: readonly Track[]
  postType: string
  /** only the posts of this author (--author), when given */
  authorId?: number
  /** added to every camera's times (--camera-offset); when not given each camera's is found from its photos with GPS */
  cameraOffsetMs?: number
  maxGapMs: number
  dryRun?: boolean
  onProgress?: (done: number, total: number) => void
}

/** Photos read per query and posts written per transaction. */
const BATCH = 500
/** A photo with GPS taken further than this from the track's span in time is of another day: it says nothing of the clock. */
const REFERENCE_WINDOW_MS = 24 * 3600_000

/** An image of the site, as read for placing: `gps` its point when it came from its file, which may tell its camera's clock. */
type Photo = { id: number; postId: number; title: string; gps: { latitude: number; longitude: number } | null; facts: PhotoFacts | null }

/** Thrown inside a dry run's transaction, to roll back what it wrote. */
class DryRun extends Error {
  constructor(readonly posts: LocatedPost[]) {
    super('dry run')
  }
}

/**
 * The images `where` says (of the posts of a type, not in the Trash), a batch at a time, with their EXIF read from their original
 * files: those without a point or with one from a track (to be placed), and, when `withGps`, those with GPS.
 */
async function* photosOf(where: Prisma.AttachmentWhereInput, withGps: boolean): AsyncGenerator<Photo[]> {
  let after = 0
  for (;;) {
    const rows = await getDb().attachment.findMany({
      where: { ...where, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true, postId: true, title: true, filePath: true, latitude: true, longitude: true, locationSource: true },
    })
    if (rows.length === 0) return
    after = rows.at(-1)!.id
    const photos: Photo[] = []
    for (const row of rows) {
      const gps = row.locationSource === 'gps' && row.latitude !== null && row.longitude !== null ? { latitude: row.latitude, longitude: row.longitude } : null
      if (gps && !withGps) continue
      const file = await mediaStore().read('originals', row.filePath)
      photos.push({ id: row.id, postId: row.postId, title: row.title, gps, facts: file && readPhotoFacts(file) })
    }
    yield photos
  }
}

/** Each camera's clock: told, or the median of what its photos with GPS, found on the track, say it was off by. */
function clocksOf(photos: readonly Photo[], line: TimedLine, timeZone: string, givenMs: number | undefined): Map<string, CameraClock> {
  const clocks = new Map<string, CameraClock>()
  const offsets = new Map<string, number[]>()
  const [first, last] = [line.times[0]!, line.times.at(-1)!]
  for (const { gps, facts } of photos) {
    const camera = facts?.camera ?? ''
    if (!clocks.has(camera)) clocks.set(camera, { camera, offsetMs: givenMs ?? 0, from: givenMs === undefined ? 'none' : 'given', references: 0 })
    if (givenMs !== undefined || !gps || !facts?.time) continue
    const time = instantOf(facts.time, timeZone)
    if (!(time >= first - REFERENCE_WINDOW_MS && time <= last + REFERENCE_WINDOW_MS)) continue
    const passed = timeAtPoint(line, gps.latitude, gps.longitude, time)
    if (!passed) continue
    if (!offsets.has(camera)) offsets.set(camera, [])
    offsets.get(camera)!.push(passed.time - time)
  }
  for (const [camera, found] of offsets) clocks.set(camera, { camera, offsetMs: Math.round(median(found)), from: 'photos', references: found.length })
  return clocks
}

/** Where each photo without GPS goes, or why it goes nowhere. */
function place(photo: Photo, line: TimedLine, clock: CameraClock, timeZone: string, maxGapMs: number): TrackPhoto {
  const base = { id: photo.id, postId: photo.postId, title: photo.title, camera: photo.facts?.camera ?? '' }
  if (!photo.facts) return { ...base, outcome: 'skipped', reason: 'no_file' }
  const time = photo.facts.time ? instantOf(photo.facts.time, timeZone) + clock.offsetMs : Number.NaN
  // A time that names no instant (an hour of 25) is none either.
  if (Number.isNaN(time)) return { ...base, outcome: 'skipped', reason: 'no_time' }
  const at = { ...base, time: new Date(time).toISOString() }
  const placement = placeAt(line, time, maxGapMs)
  if (!placement.placed) return { ...at, outcome: 'skipped', reason: placement.reason, gapMs: placement.gapMs }
  return {
    ...at,
    outcome: placement.confidence === 'sure' ? 'placed' : 'unsure',
    latitude: roundCoordinate(placement.latitude),
    longitude: roundCoordinate(placement.longitude),
    gapMs: placement.gapMs,
  }
}

/** Writes the placed photos of some posts, then sets each of those posts without a location from its first photo with a point. */
async function writeBatch(tx: Tx, placed: readonly TrackPhoto[], gazetteer: Awaited<ReturnType<typeof getGazetteer>>, dryRun: boolean): Promise<LocatedPost[]> {
  for (const photo of placed) {
    // A photo given GPS meanwhile (a new upload under the same id cannot be: ids are not reused) keeps it.
    await tx.attachment.updateMany({
      where: { id: photo.id, OR: [{ latitude: null }, { locationSource: 'track' }] },
      data: { latitude: photo.latitude!, longitude: photo.longitude!, locationSource: 'track' },
    })
  }
  const postIds = [...new Set(placed.map((photo) => photo.postId))]
  return locateBatch(tx, OPERATOR, postIds, gazetteer, { missingOnly: true, dryRun, withTrackPoints: true })
}

/**
 * `places locate --from-track`: the photos of the posts of one type placed by their time on `tracks` (the operator's
 * run: every post may change). A dry run does all of it in transactions it rolls back, so that it says exactly what
 * a run would.
 */
export async function locateFromTrack(options: TrackLocateOptions): Promise<TrackLocateReport> {
  const line = timedLine(options.tracks)
  if (line.times.length === 0) throw new Error('the track has no point with a time: photos are placed by their time on a track')
  const dryRun = options.dryRun === true
  const { timezone } = await getSiteSettings()
  const where: Prisma.AttachmentWhereInput = {
    mimeType: { startsWith: 'image/' },
    post: { type: options.postType, status: { not: 'trash' }, ...(options.authorId === undefined ? {} : { authorId: options.authorId }) },
  }
  const total = await getDb().attachment.count({ where })
  const photos: Photo[] = []
  options.onProgress?.(0, total)
  let seen = 0
  for await (const batch of photosOf(where, options.cameraOffsetMs === undefined)) {
    photos.push(...batch)
    seen += BATCH
    options.onProgress?.(Math.min(seen, total), total)
  }
  const clocks = clocksOf(photos, line, timezone, options.cameraOffsetMs)
  const placing = photos.filter((photo) => !photo.gps).map((photo) => place(photo, line, clocks.get(photo.facts?.camera ?? '')!, timezone, options.maxGapMs))
  const placed = placing.filter((photo) => photo.outcome !== 'skipped')
  const gazetteer = await getGazetteer()
  const posts: LocatedPost[] = []
  const byPost = new Map<number, TrackPhoto[]>()
  for (const photo of placed) byPost.set(photo.postId, [...(byPost.get(photo.postId) ?? []), photo])
  const postIds = [...byPost.keys()]
  for (let start = 0; start < postIds.length; start += BATCH) {
    const batch = postIds.slice(start, start + BATCH).flatMap((id) => byPost.get(id)!)
    const write = (tx: Tx) => writeBatch(tx, batch, gazetteer, dryRun)
    if (!dryRun) posts.push(...(await transaction(write, { timeout: BATCH_TIMEOUT_MS })))
    else {
      const rolledBack = await transaction(
        async (tx) => {
          throw new DryRun(await write(tx))
        },
        { timeout: BATCH_TIMEOUT_MS },
      ).catch((error: unknown) => {
        if (error instanceof DryRun) return error.posts
        throw error
      })
      posts.push(...rolledBack)
    }
  }
  const skippedBy: Record<TrackSkipReason, number> = { no_time: 0, outside_track: 0, track_gap: 0, no_file: 0 }
  for (const photo of placing) if (photo.reason) skippedBy[photo.reason]++
  const count = (outcome: TrackPhoto['outcome']) => placing.filter((photo) => photo.outcome === outcome).length
  const stats = options.tracks.map(trackStats)
  const gains = stats.flatMap((stat) => (stat.elevationGainM === null ? [] : [stat.elevationGainM]))
  const track: TrackSummary = {
    tracks: options.tracks.length,
    points: options.tracks.reduce((sum, { times }) => sum + times.length, 0),
    timedPoints: line.times.length,
    from: new Date(line.times[0]!).toISOString(),
    to: new Date(line.times.at(-1)!).toISOString(),
    distanceM: Math.round(stats.reduce((sum, stat) => sum + stat.distanceM, 0)),
    elevationGainM: gains.length === 0 ? null : Math.round(gains.reduce((sum, gain) => sum + gain, 0)),
  }
  return {
    track,
    summary: { photos: placing.length, placed: count('placed'), unsure: count('unsure'), skipped: count('skipped'), skippedBy, dryRun },
    cameras: [...clocks.values()].filter((clock) => placing.some((photo) => photo.camera === clock.camera)),
    photos: placing,
    posts: { summary: summarise(posts, dryRun), posts },
  }
}
