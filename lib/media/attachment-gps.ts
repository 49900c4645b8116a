import 'server-only'
import type { AttachmentGps } from '../api/contract'
import { canEditPost, type Actor } from '../auth/capabilities'
import { getDb } from '../db'
import { ApiError, forbidden, notSignedIn } from '../http/errors'
import { ATTACHMENT_ORDER } from './storage'

export type { AttachmentGps }

/**
 * GET /places/v1/attachment-exif-gps/{id}: the GPS of the first image attached to the post that has usable GPS.
 * "First" is the order of docs/api.md, Ordering: position (WordPress's menu_order), then upload time, then id. The GPS was read
 * from each file when it was stored, so this reads only the database.
 */
export async function getAttachmentGps(actor: Actor | null, postId: number): Promise<AttachmentGps> {
  if (!actor) throw notSignedIn()
  const db = getDb()
  const post = await db.post.findUnique({ where: { id: postId }, select: { authorId: true, status: true, statusBeforeTrash: true } })
  if (!canEditPost(actor, post)) throw forbidden()
  const images = await db.attachment.findMany({
    where: { postId, mimeType: { startsWith: 'image/' } },
    orderBy: [...ATTACHMENT_ORDER],
    select: { id: true, title: true, latitude: true, longitude: true },
  })
  const first = images.find((image) => image.latitude !== null && image.longitude !== null)
  if (!first) {
    const looked = images.length === 1 ? '1 image was' : `${images.length} images were`
    throw new ApiError('rest_no_exif_gps', `No attached image has usable EXIF GPS data (${looked} looked at).`, 404, { images_checked: images.length })
  }
  return { latitude: first.latitude!, longitude: first.longitude!, attachment_id: first.id, attachment_title: first.title }
}
