import 'server-only'
import { OPERATOR, type Caller } from '../auth/callers'
import { mayActOnPost, POST_FOR_CAPABILITY } from '../auth/post-access'
import { getDb, transaction, type Tx } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { getGazetteer } from '../geo/gazetteer'
import { ApiError } from '../http/errors'
import { roundCoordinate } from '../geo/precision'
import { instantOf, readPhotoFacts, type PhotoFacts } from '../media/exif-time'
import { mediaStore } from '../media/store'
import { BATCH_TIMEOUT_MS, lockEditablePosts, locateBatch, summarise, type LocateReport, type LocatedPost } from '../places/locate'
import { getSiteSettings } from '../site'
import { MAX_REFERENCE_DISTANCE_M, median, placeAt, timeAtPoint } from './match'
import { timedLine, trackStats, type TimedLine, type Track } from './track'

// `places locate --from-track FILE.gpx` (docs/trips.md): each photo without GPS of the site's posts is placed where
// the track was when it was taken, its camera's clock corrected; then each post without a location takes its first
// photo's point, as `locate --from-media` sets it. A photo placed so records it (attachments.location_source 'track');
// a later run places it again where its track places it (another offset moves it), and leaves it where another
// track placed it (a run with the next day's track must not undo this one's). The admin's review (review-photos.ts)
// asks the same questions of a trip's tracks, then writes only the placements its editor accepts.

export type TrackSkipReason = 'no_time' | 'outside_track' | 'track_gap' | 'no_file'

export type TrackPhoto = {
  id: number
  postId: number
  title: string
  camera: string
  /** placed: sure (seconds from a track point, or put by hand); unsure: likely (minutes), placed all the same; skipped: see reason */
  outcome: 'placed' | 'unsure' | 'skipped'
  /** where the point comes from: the track, or the editor's hand (the review's "Place by hand") */
  source?: 'track' | 'hand'
  reason?: TrackSkipReason
  /** the photo's time, its camera's clock corrected (ISO 8601, UTC) */
  time?: string
  latitude?: number
  longitude?: number
  /** milliseconds to the further of the track points either side (to the track's end, before or after it) */
  gapMs?: number
}

/**
 * A camera's clock: what is added to its photos' times, told (--camera-offset), found from its photos with a point of
 * their own (GPS, or put there by hand), found from the one photo the editor is placing by hand, or none.
 */
export type CameraClock = { camera: string; offsetMs: number; from: 'given' | 'photos' | 'hand' | 'none'; references: number }

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

/** Whose photos are placed: those of the posts `who` may edit, not in the Trash, narrowed by each field given. */
export type PhotoScope = {
  who: Caller
  postType?: string
  /** only the posts of this author (--author) */
  authorId?: number
  postIds?: readonly number[]
  /** only photos uploaded since: a photo taken on a trip was uploaded after it began, whatever its camera's clock says */
  uploadedSince?: Date
}

/** A photo the editor has put on the map by hand: its camera's clock is found from it, and it is placed there. */
export type HandPlacement = { photoId: number; latitude: number; longitude: number }

export type PlacementOptions = {
  tracks: readonly Track[]
  /** added to every camera's times (--camera-offset); when not given each camera's is found from its photos with a point */
  cameraOffsetMs?: number
  byHand?: HandPlacement
  maxGapMs: number
  onProgress?: (done: number, total: number) => void
}

export type TrackLocateOptions = PlacementOptions & { postType: string; authorId?: number; dryRun?: boolean }

/** What the photos would become, before anything is written. */
export type PlacementProposal = { track: TrackSummary; cameras: CameraClock[]; photos: TrackPhoto[] }

/** Photos read per query and posts written per transaction. */
const BATCH = 500
/** A photo with GPS taken further than this from the track's span in time is of another day: it says nothing of the clock. */
const REFERENCE_WINDOW_MS = 24 * 3600_000

/**
 * An image of the site, as read for placing: `gps` its point when it came from its file or from an editor's hand,
 * which may tell its camera's clock.
 */
type Photo = {
  id: number
  postId: number
  title: string
  gps: { latitude: number; longitude: number } | null
  facts: PhotoFacts | null
  /** the photo the editor is placing by hand: `gps` is where they put it */
  byHand: boolean
}

/** Thrown inside a dry run's transaction, to roll back what it wrote. */
class DryRun extends Error {
  constructor(readonly written: { posts: LocatedPost[]; photos: number }) {
    super('dry run')
  }
}

/** The images of `scope`'s posts. */
function imagesOf(scope: PhotoScope): Prisma.AttachmentWhereInput {
  return {
    mimeType: { startsWith: 'image/' },
    ...(scope.uploadedSince ? { createdAt: { gte: scope.uploadedSince } } : {}),
    post: {
      status: { not: 'trash' },
      ...(scope.postType === undefined ? {} : { type: scope.postType }),
      ...(scope.authorId === undefined ? {} : { authorId: scope.authorId }),
      ...(scope.postIds === undefined ? {} : { id: { in: [...scope.postIds] } }),
    },
  }
}

/**
 * The images of `scope` whose posts its caller may edit, a batch at a time, with their EXIF read from their original
 * files: those without a point or with one from a track (to be placed), and, when `withPoints`, those with GPS or
 * placed by hand. `byHand` is taken as placed by hand where it says.
 */
async function* photosOf(scope: PhotoScope, withPoints: boolean, byHand: HandPlacement | undefined): AsyncGenerator<Photo[]> {
  let after = 0
  for (;;) {
    const rows = await getDb().attachment.findMany({
      where: { ...imagesOf(scope), id: { gt: after } },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: {
        id: true,
        postId: true,
        title: true,
        filePath: true,
        latitude: true,
        longitude: true,
        locationSource: true,
        post: { select: POST_FOR_CAPABILITY },
      },
    })
    if (rows.length === 0) return
    after = rows.at(-1)!.id
    const photos: Photo[] = []
    for (const row of rows) {
      if (!mayActOnPost(scope.who, 'edit', row.post)) continue
      const own = (row.locationSource === 'gps' || row.locationSource === 'hand') && row.latitude !== null && row.longitude !== null
      // A photo with GPS of its own is never placed, by hand neither.
      const hand = row.id === byHand?.photoId && row.locationSource !== 'gps'
      const gps = hand ? byHand : own ? { latitude: row.latitude!, longitude: row.longitude! } : null
      if (gps && !withPoints && !hand) continue
      const file = await mediaStore().read('originals', row.filePath)
      photos.push({ id: row.id, postId: row.postId, title: row.title, gps, facts: file && readPhotoFacts(file), byHand: hand })
    }
    yield photos
  }
}

const handError = (message: string) => new ApiError('rest_invalid_param', message, { params: { hand: message } })

/**
 * Each camera's clock: told, or the median of what its photos with a point, found on the track, say it was off by;
 * the camera of a photo placed by hand goes by that photo alone (the editor has just said where it was taken).
 */
function clocksOf(
  photos: readonly Photo[],
  line: TimedLine,
  timeZone: string,
  givenMs: number | undefined,
  byHand: HandPlacement | undefined,
): Map<string, CameraClock> {
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
  const placed = byHand && photos.find((photo) => photo.byHand)
  if (byHand && !placed) throw handError(`Photo ${byHand.photoId} is not one of these photos without GPS, or you may not edit its post.`)
  if (placed) {
    const camera = placed.facts?.camera ?? ''
    const time = placed.facts?.time ? instantOf(placed.facts.time, timeZone) : Number.NaN
    if (Number.isNaN(time)) throw handError(`Photo ${byHand.photoId} has no time in its EXIF: its camera's clock cannot be found from it.`)
    const passed = timeAtPoint(line, byHand.latitude, byHand.longitude, time)
    if (!passed) throw handError(`The track never passed within ${MAX_REFERENCE_DISTANCE_M} m of where photo ${byHand.photoId} was put: put it on the line.`)
    clocks.set(camera, { camera, offsetMs: Math.round(passed.time - time), from: 'hand', references: 1 })
  }
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
    source: 'track',
    latitude: roundCoordinate(placement.latitude),
    longitude: roundCoordinate(placement.longitude),
    gapMs: placement.gapMs,
  }
}

/**
 * Writes the placed photos of some posts `who` may edit, then sets each of those posts without a location from its
 * first photo with a point.
 */
async function writeBatch(
  tx: Tx,
  who: Caller,
  placed: readonly TrackPhoto[],
  gazetteer: Awaited<ReturnType<typeof getGazetteer>>,
  dryRun: boolean,
): Promise<{ posts: LocatedPost[]; photos: number }> {
  const postIds = [...new Set(placed.map((photo) => photo.postId))]
  const editable = new Set(await lockEditablePosts(tx, who, postIds))
  let photos = 0
  for (const photo of placed) {
    if (!editable.has(photo.postId)) continue
    // A photo given GPS meanwhile (a new upload under the same id cannot be: ids are not reused) keeps it; one placed
    // by hand is moved by hand alone.
    const source = photo.source ?? 'track'
    const { count } = await tx.attachment.updateMany({
      where: {
        id: photo.id,
        postId: photo.postId,
        post: { status: { not: 'trash' } },
        OR: [{ latitude: null }, { locationSource: 'track' }, ...(source === 'hand' ? [{ locationSource: 'hand' }] : [])],
      },
      data: { latitude: photo.latitude!, longitude: photo.longitude!, locationSource: source },
    })
    photos += count
  }
  return { posts: await locateBatch(tx, who, postIds, gazetteer, { missingOnly: true, dryRun, withTrackPoints: true }), photos }
}

/**
 * Where the photos of `scope` would go on `options.tracks`, and each camera's clock: nothing is written. Throws when
 * the track has no time, or a photo placed by hand cannot tell its camera's clock.
 */
export async function proposePlacements(scope: PhotoScope, options: PlacementOptions): Promise<PlacementProposal & { line: TimedLine }> {
  const line = timedLine(options.tracks)
  if (line.times.length === 0) throw new ApiError('rest_invalid_param', 'The track has no point with a time: photos are placed by their time on a track.')
  const { timezone } = await getSiteSettings()
  const total = await getDb().attachment.count({ where: imagesOf(scope) })
  const photos: Photo[] = []
  options.onProgress?.(0, total)
  let seen = 0
  for await (const batch of photosOf(scope, options.cameraOffsetMs === undefined, options.byHand)) {
    photos.push(...batch)
    seen += BATCH
    options.onProgress?.(Math.min(seen, total), total)
  }
  const clocks = clocksOf(photos, line, timezone, options.cameraOffsetMs, options.byHand)
  const placing = photos
    .filter((photo) => !photo.gps || photo.byHand)
    .map((photo): TrackPhoto => {
      const clock = clocks.get(photo.facts?.camera ?? '')!
      if (!photo.byHand) return place(photo, line, clock, timezone, options.maxGapMs)
      const time = instantOf(photo.facts!.time!, timezone) + clock.offsetMs
      const point = { latitude: roundCoordinate(photo.gps!.latitude), longitude: roundCoordinate(photo.gps!.longitude) }
      return {
        id: photo.id,
        postId: photo.postId,
        title: photo.title,
        camera: clock.camera,
        outcome: 'placed',
        source: 'hand',
        time: new Date(time).toISOString(),
        ...point,
        gapMs: 0,
      }
    })
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
  const cameras = [...clocks.values()].filter((clock) => placing.some((photo) => photo.camera === clock.camera))
  return { line, track, cameras, photos: placing }
}

/**
 * Writes `placed` (of a proposal: placed or unsure) as `who` may, a batch of posts per transaction, and sets each of
 * their posts without a location; a dry run does it all in transactions it rolls back, to say what a run would write.
 */
export async function writePlacements(who: Caller, placed: readonly TrackPhoto[], dryRun: boolean): Promise<{ posts: LocatedPost[]; photos: number }> {
  const gazetteer = await getGazetteer()
  const posts: LocatedPost[] = []
  let photos = 0
  const byPost = new Map<number, TrackPhoto[]>()
  for (const photo of placed) byPost.set(photo.postId, [...(byPost.get(photo.postId) ?? []), photo])
  const postIds = [...byPost.keys()]
  for (let start = 0; start < postIds.length; start += BATCH) {
    const batch = postIds.slice(start, start + BATCH).flatMap((id) => byPost.get(id)!)
    const write = (tx: Tx) => writeBatch(tx, who, batch, gazetteer, dryRun)
    const written = dryRun
      ? await transaction(
          async (tx) => {
            throw new DryRun(await write(tx))
          },
          { timeout: BATCH_TIMEOUT_MS },
        ).catch((error: unknown) => {
          if (error instanceof DryRun) return error.written
          throw error
        })
      : await transaction(write, { timeout: BATCH_TIMEOUT_MS })
    posts.push(...written.posts)
    photos += written.photos
  }
  return { posts, photos }
}

/**
 * `places locate --from-track`: the photos of the posts of one type placed by their time on `tracks` (the operator's
 * run: every post may change). A dry run does all of it in transactions it rolls back, so that it says exactly what
 * a run would.
 */
export async function locateFromTrack(options: TrackLocateOptions): Promise<TrackLocateReport> {
  const dryRun = options.dryRun === true
  const scope: PhotoScope = { who: OPERATOR, postType: options.postType, authorId: options.authorId }
  const { track, cameras, photos } = await proposePlacements(scope, options)
  const { posts } = await writePlacements(
    OPERATOR,
    photos.filter((photo) => photo.outcome !== 'skipped'),
    dryRun,
  )
  const skippedBy: Record<TrackSkipReason, number> = { no_time: 0, outside_track: 0, track_gap: 0, no_file: 0 }
  for (const photo of photos) if (photo.reason) skippedBy[photo.reason]++
  const count = (outcome: TrackPhoto['outcome']) => photos.filter((photo) => photo.outcome === outcome).length
  return {
    track,
    summary: { photos: photos.length, placed: count('placed'), unsure: count('unsure'), skipped: count('skipped'), skippedBy, dryRun },
    cameras,
    photos,
    posts: { summary: summarise(posts, dryRun), posts },
  }
}
