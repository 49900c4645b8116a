import 'server-only'
import { OPERATOR, type Caller } from '../auth/callers'
import { canCreatePosts, type Actor } from '../auth/capabilities'
import { mayActOnPost, POST_FOR_CAPABILITY } from '../auth/post-access'
import { getDb, lockPosts, transaction, type Tx } from '../db'
import { formatPlace, getGazetteer, MAX_DISTANCE_KM, type Gazetteer } from '../geo/gazetteer'
import { roundCoordinate } from '../geo/precision'
import type { Prisma } from '../generated/sqlite/client'
import { forbidden } from '../http/errors'
import { findPhotoGps } from '../media/attachment-gps'
import { searchColumns } from './search'
import { PublicLocationRule } from './visibility'

// Locations written in bulk (docs/cli.md, "Locations and addresses in bulk"): `places locate --from-media`,
// `places geocode --missing`, the admin's "Import locations from media", and, through locateBatch, `places locate
// --from-track` (lib/trips/locate-from-track.ts). Every write of a post's location here
// goes through writeLocation, so that what is derived from a location is kept beside it in one place.

/** A post's location as it is stored: both coordinates or neither, and the address text ('' for none). */
export type Location = { latitude: number | null; longitude: number | null; address: string }

/**
 * Writes the location of a post: the coordinates at the site's one precision (lib/geo/precision.ts), the address,
 * and the columns derived from them: what the public sees of it at the post's privacy level (`rule`, read once per
 * batch: lib/places/visibility.ts) and the admin's search text, which holds the address.
 */
export async function writeLocation(
  tx: Tx,
  rule: PublicLocationRule,
  post: { id: number; title: string; locationPrecision: string },
  location: Location,
): Promise<void> {
  const hasPoint = location.latitude !== null && location.longitude !== null
  const stored = {
    latitude: hasPoint ? roundCoordinate(location.latitude!) : null,
    longitude: hasPoint ? roundCoordinate(location.longitude!) : null,
    address: location.address,
  }
  await tx.post.update({
    where: { id: post.id },
    data: {
      ...stored,
      ...(await rule.columns({ ...stored, locationPrecision: post.locationPrecision })),
      searchText: searchColumns({ title: post.title, address: location.address }).searchText,
      modifiedAt: new Date(),
    },
  })
}

/** Posts read and written per transaction: one commit for many, and a transaction short enough not to hold others up. */
const BATCH = 500
/** A batch takes a fraction of a second; Prisma's 5 s default would fail a run on a machine busy with other work. */
export const BATCH_TIMEOUT_MS = 60_000

/** Why a post was left as it was. */
export type SkipReason = 'no_photo_gps' | 'has_location' | 'in_trash' | 'not_editable'

export type LocatedPost = {
  id: number
  /** null where the caller may not edit the post: nothing of it is told */
  title: string | null
  /** set: something was written; unchanged: the photo's point is the post's already; skipped: see `reason` */
  outcome: 'set' | 'unchanged' | 'skipped'
  reason?: SkipReason
  latitude?: number
  longitude?: number
  /** the photo the point came from */
  attachmentId?: number
  /** the address after the change (filled from the gazetteer only where it was empty) */
  address?: string
  /** the address was empty and was filled from the gazetteer */
  addressFilled?: boolean
  /** the address was empty and the gazetteer knows no place near the point (the sea, the ice): it stays empty */
  noPlace?: boolean
  /** what happened, in a sentence, for people */
  note: string
}

export type LocateSummary = {
  /** posts looked at */
  posts: number
  set: number
  unchanged: number
  skipped: number
  /** skipped posts by reason */
  skippedBy: Record<SkipReason, number>
  /** empty addresses filled from the gazetteer */
  addressesFilled: number
  /** empty addresses left empty: no populated place near the point */
  noPlace: number
  /** nothing was written (--dry-run) */
  dryRun: boolean
}

export type LocateReport = { summary: LocateSummary; posts: LocatedPost[] }

export type LocateOptions = {
  /** leave posts that have a location as they are (--missing-only) */
  missingOnly?: boolean
  /** say what would be written, and write nothing */
  dryRun?: boolean
  /** photos placed from a track count as having a point (`locate --from-track`); else only EXIF GPS does */
  withTrackPoints?: boolean
}

const NO_PLACE = `no populated place within ${MAX_DISTANCE_KM} km (at sea or far from any town): the address stays empty`

/** The address for a point, or null where the gazetteer has no place near it. */
function addressOf(gazetteer: Gazetteer, latitude: number, longitude: number): string | null {
  const found = gazetteer.reverseGeocode(latitude, longitude)
  return found && formatPlace(found)
}

/**
 * Of `ids`, the posts `who` may edit, locked for the rest of the transaction: only those are locked, so a user holds
 * up no one else's posts, and who may edit one is decided again on the locked row the write will change.
 */
export async function lockEditablePosts(tx: Tx, who: Caller, ids: readonly number[]): Promise<number[]> {
  if (who === OPERATOR) {
    await lockPosts(tx, ids)
    return [...ids]
  }
  const editable = async (among: readonly number[]) => {
    const rows = await tx.post.findMany({ where: { id: { in: [...among] } }, select: { id: true, ...POST_FOR_CAPABILITY } })
    return rows.filter((row) => mayActOnPost(who, 'edit', row)).map((row) => row.id)
  }
  const locked = await editable(ids)
  await lockPosts(tx, locked)
  return editable(locked)
}

/**
 * One transaction's worth of `locate --from-media`: the posts of `ids`, in that order, each set from its first photo
 * with a point. `locate --from-track` calls it too, once it has placed its photos in the same transaction.
 */
export async function locateBatch(tx: Tx, who: Caller, ids: readonly number[], gazetteer: Gazetteer, options: LocateOptions): Promise<LocatedPost[]> {
  const editable = await lockEditablePosts(tx, who, ids)
  const rows = await tx.post.findMany({
    where: { id: { in: editable } },
    select: {
      id: true,
      title: true,
      status: true,
      statusBeforeTrash: true,
      authorId: true,
      latitude: true,
      longitude: true,
      address: true,
      locationPrecision: true,
    },
  })
  const rule = await PublicLocationRule.load(tx)
  const byId = new Map(rows.map((row) => [row.id, row]))
  const photos = await findPhotoGps(
    tx,
    rows.map((row) => row.id),
    { withTrackPoints: options.withTrackPoints },
  )
  const results: LocatedPost[] = []
  for (const id of ids) {
    const post = byId.get(id)
    // A post that is gone and one the caller may not edit are told apart by nobody but the operator.
    if (!post || !mayActOnPost(who, 'edit', post)) {
      results.push({ id, title: null, outcome: 'skipped', reason: 'not_editable', note: 'not found, or you may not edit it' })
      continue
    }
    const skip = (reason: SkipReason, note: string) => results.push({ id, title: post.title, outcome: 'skipped', reason, note })
    if (post.status === 'trash') {
      skip('in_trash', 'in the Trash: restore it first')
      continue
    }
    const hasLocation = post.latitude !== null && post.longitude !== null
    if (options.missingOnly && hasLocation) {
      skip('has_location', 'has a location already')
      continue
    }
    const { found, imagesChecked } = photos.get(id)!
    if (!found) {
      skip(
        'no_photo_gps',
        imagesChecked === 0 ? 'has no photos' : `no photo has GPS (${imagesChecked === 1 ? '1 photo' : `${imagesChecked} photos`} looked at)`,
      )
      continue
    }
    const latitude = roundCoordinate(found.latitude)
    const longitude = roundCoordinate(found.longitude)
    const from = `photo ${found.attachment_id}${found.attachment_title ? ` (“${found.attachment_title}”)` : ''}`
    // A typed address is never replaced: only an empty one is filled.
    const suggested = post.address.trim() === '' ? addressOf(gazetteer, latitude, longitude) : null
    const samePoint = post.latitude === latitude && post.longitude === longitude
    const base = { id, title: post.title, latitude, longitude, attachmentId: found.attachment_id }
    if (samePoint && suggested === null) {
      const noPlace = post.address.trim() === ''
      results.push({
        ...base,
        outcome: 'unchanged',
        address: post.address,
        ...(noPlace ? { noPlace } : {}),
        note: `already at ${latitude}, ${longitude}, the point of ${from}${noPlace ? `; ${NO_PLACE}` : ''}`,
      })
      continue
    }
    const address = suggested ?? post.address
    if (!options.dryRun) await writeLocation(tx, rule, post, { latitude, longitude, address })
    const would = options.dryRun ? 'would be ' : ''
    const what = samePoint ? `already at ${latitude}, ${longitude} (${from})` : `${would || 'location '}set to ${latitude}, ${longitude} from ${from}`
    const addressNote =
      suggested !== null ? `address ${would}filled: “${suggested}”` : post.address.trim() === '' ? NO_PLACE : `the address “${post.address}” is kept as typed`
    const noPlace = suggested === null && post.address.trim() === ''
    results.push({ ...base, outcome: 'set', address, addressFilled: suggested !== null, ...(noPlace ? { noPlace } : {}), note: `${what}; ${addressNote}` })
  }
  return results
}

export function summarise(posts: readonly LocatedPost[], dryRun: boolean): LocateSummary {
  const skippedBy: Record<SkipReason, number> = { no_photo_gps: 0, has_location: 0, in_trash: 0, not_editable: 0 }
  const summary: LocateSummary = { posts: posts.length, set: 0, unchanged: 0, skipped: 0, skippedBy, addressesFilled: 0, noPlace: 0, dryRun }
  for (const post of posts) {
    summary[post.outcome]++
    if (post.reason) skippedBy[post.reason]++
    if (post.noPlace) summary.noPlace++
    if (post.addressFilled) summary.addressesFilled++
  }
  return summary
}

/**
 * The admin's bulk "Import locations from media": each post of `postIds` that `actor` may edit gets the point of its
 * first photo with GPS, as "Import location from media" does for one; a post `actor` may not edit is reported skipped
 * and left as it is. One transaction: the admin's selection is one page of the list.
 */
export async function importLocationsFromMedia(actor: Actor, postIds: readonly number[], options: LocateOptions = {}): Promise<LocateReport> {
  // Who may write no post at all is refused before any work.
  if (!canCreatePosts(actor)) throw forbidden()
  const ids = [...new Set(postIds)]
  const gazetteer = await getGazetteer()
  const posts = await transaction((tx) => locateBatch(tx, actor, ids, gazetteer, options), { timeout: BATCH_TIMEOUT_MS })
  return { summary: summarise(posts, options.dryRun === true), posts }
}

export type BulkOptions = {
  /** the post type to work on (docs/cli.md: `post` unless told) */
  postType: string
  onProgress?: (done: number, total: number) => void
}

/**
 * The ids of the posts of `postType` not in the Trash matching `where`, in batches, by id: a site of 100,000 posts is
 * read a batch at a time, and a post added meanwhile is met when its id comes.
 */
async function* batchesOfPosts(postType: string, where: Prisma.PostWhereInput): AsyncGenerator<number[]> {
  let after = 0
  for (;;) {
    const rows = await getDb().post.findMany({
      where: { AND: [{ type: postType, status: { not: 'trash' }, id: { gt: after } }, where] },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true },
    })
    if (rows.length === 0) return
    yield rows.map((row) => row.id)
    after = rows.at(-1)!.id
  }
}

/**
 * `places locate --from-media`: every post of the type, not in the Trash, set from its first photo with GPS (the
 * operator's run: no capability applies). One transaction a batch.
 */
export async function locateFromMedia(options: BulkOptions & LocateOptions): Promise<LocateReport> {
  const total = await getDb().post.count({ where: { type: options.postType, status: { not: 'trash' } } })
  const gazetteer = await getGazetteer()
  const posts: LocatedPost[] = []
  options.onProgress?.(0, total)
  for await (const ids of batchesOfPosts(options.postType, {})) {
    posts.push(...(await transaction((tx) => locateBatch(tx, OPERATOR, ids, gazetteer, options), { timeout: BATCH_TIMEOUT_MS })))
    options.onProgress?.(Math.min(posts.length, total), Math.max(total, posts.length))
  }
  return { summary: summarise(posts, options.dryRun === true), posts }
}

export type GeocodedPost = {
  id: number
  title: string
  latitude: number
  longitude: number
  /** the address written (or, with --dry-run, that would be); null where no populated place is near */
  address: string | null
}

export type GeocodeSummary = {
  /** posts with a location and an empty address */
  posts: number
  filled: number
  /** left empty: no populated place within MAX_DISTANCE_KM */
  noPlace: number
  dryRun: boolean
}

export type GeocodeReport = { summary: GeocodeSummary; posts: GeocodedPost[] }

/**
 * `places geocode --missing`: every post of the type, not in the Trash, that has a location and an empty address gets
 * "Place, Region, Country" from the offline gazetteer. A post whose address was typed meanwhile is left as it is.
 */
export async function geocodeMissing(options: BulkOptions & { dryRun?: boolean }): Promise<GeocodeReport> {
  const missing: Prisma.PostWhereInput = { latitude: { not: null }, longitude: { not: null }, address: '' }
  const total = await getDb().post.count({ where: { type: options.postType, status: { not: 'trash' }, ...missing } })
  const gazetteer = await getGazetteer()
  const posts: GeocodedPost[] = []
  options.onProgress?.(0, total)
  for await (const ids of batchesOfPosts(options.postType, missing)) {
    const batch = await transaction(
      async (tx) => {
        await lockPosts(tx, ids)
        // Read again under the lock: an address typed since the ids were listed is not replaced.
        const rows = await tx.post.findMany({
          where: { id: { in: ids }, status: { not: 'trash' }, ...missing },
          orderBy: { id: 'asc' },
          select: { id: true, title: true, latitude: true, longitude: true, locationPrecision: true },
        })
        const rule = await PublicLocationRule.load(tx)
        const done: GeocodedPost[] = []
        for (const row of rows) {
          const point = { latitude: row.latitude!, longitude: row.longitude! }
          const address = addressOf(gazetteer, point.latitude, point.longitude)
          if (address !== null && !options.dryRun) await writeLocation(tx, rule, row, { ...point, address })
          done.push({ id: row.id, title: row.title, ...point, address })
        }
        return done
      },
      { timeout: BATCH_TIMEOUT_MS },
    )
    posts.push(...batch)
    options.onProgress?.(Math.min(posts.length, total), Math.max(total, posts.length))
  }
  const filled = posts.filter((post) => post.address !== null).length
  return { summary: { posts: posts.length, filled, noPlace: posts.length - filled, dryRun: options.dryRun === true }, posts }
}
