import 'server-only'
import type { AttachmentGps } from '../api/contract'
import type { Actor } from '../auth/capabilities'
import { requirePostAccess } from '../auth/post-access'
import { getDb, type Db, type Tx } from '../db'
import { ApiError } from '../http/errors'
import { ATTACHMENT_ORDER } from './storage'

export type { AttachmentGps }

/** What the photos of one post say about where it is: the first image's usable GPS, or none, and how many were looked at. */
export type PhotoGps = { found: AttachmentGps | null; imagesChecked: number }

/**
 * The rule of the GPS route for many posts at once: for each post, the first image attached to it that has usable GPS.
 * "First" is the order of docs/api.md, Ordering: position (WordPress's menu_order), then upload time, then id. The GPS
 * was read from each file when it was stored, so this reads only the database. Every post of `postIds` has an entry.
 * The route answers with EXIF GPS alone; `withTrackPoints` counts photos placed from a track or by hand too (docs/trips.md).
 */
export async function findPhotoGps(db: Db | Tx, postIds: readonly number[], { withTrackPoints = false } = {}): Promise<Map<number, PhotoGps>> {
  const images = await db.attachment.findMany({
    where: { postId: { in: [...postIds] }, mimeType: { startsWith: 'image/' } },
    orderBy: [{ postId: 'asc' }, ...ATTACHMENT_ORDER],
    select: { id: true, postId: true, title: true, latitude: true, longitude: true, locationSource: true },
  })
  const byPost = new Map<number, PhotoGps>(postIds.map((id) => [id, { found: null, imagesChecked: 0 }]))
  for (const image of images) {
    const entry = byPost.get(image.postId)!
    entry.imagesChecked++
    const counts = image.locationSource === 'gps' || (withTrackPoints && (image.locationSource === 'track' || image.locationSource === 'hand'))
    if (entry.found === null && counts && image.latitude !== null && image.longitude !== null) {
      entry.found = { latitude: image.latitude, longitude: image.longitude, attachment_id: image.id, attachment_title: image.title }
    }
  }
  return byPost
}

/** GET /places/v1/attachment-exif-gps/{id}: the GPS of the first image attached to the post that has usable GPS. */
export async function getAttachmentGps(actor: Actor | null, postId: number): Promise<AttachmentGps> {
  const db = getDb()
  await requirePostAccess(db, actor, postId, 'edit')
  const { found, imagesChecked } = (await findPhotoGps(db, [postId])).get(postId)!
  if (!found) {
    const looked = imagesChecked === 1 ? '1 image was' : `${imagesChecked} images were`
    throw new ApiError('rest_no_exif_gps', `No attached image has usable EXIF GPS data (${looked} looked at).`, { images_checked: imagesChecked })
  }
  return found
}
