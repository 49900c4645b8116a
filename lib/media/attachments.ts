import 'server-only'
import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { canEditPost, type Actor } from '../auth/capabilities'
import { getDb } from '../db'
import { ApiError, forbidden, notSignedIn } from '../http/errors'
import { storeAttachment, uploadsPath, type AttachmentDto, type NewUpload } from './storage'

/** Adds an image to a post, for someone who may edit it. */
export async function uploadAttachment(actor: Actor | null, upload: NewUpload): Promise<AttachmentDto> {
  if (!actor) throw notSignedIn()
  const post = await getDb().post.findUnique({ where: { id: upload.postId }, select: { authorId: true, status: true, statusBeforeTrash: true } })
  if (!canEditPost(actor, post)) throw forbidden()
  return storeAttachment(upload)
}

const STORED_PATH = /^\d{4}\/\d{2}\/[a-z0-9_-]+\.[a-z]{3,4}$/

export type ImageFile = { body: ReadableStream<Uint8Array>; mimeType: string; size: number; etag: string; isPublic: boolean }

/**
 * An uploaded image as visitors load it (the copy without location metadata): anyone may load the images of
 * published posts; the images of other posts only those who may edit them. Anything else is not found.
 */
export async function openPublicImage(relative: string, whoIsAsking: () => Promise<Actor | null>): Promise<ImageFile> {
  const notFound = new ApiError('rest_no_route', 'No file was found at this address.', 404)
  if (!STORED_PATH.test(relative)) throw notFound
  const attachment = await getDb().attachment.findUnique({
    where: { filePath: relative },
    select: { mimeType: true, post: { select: { authorId: true, status: true, statusBeforeTrash: true } } },
  })
  if (!attachment) throw notFound
  const isPublic = attachment.post.status === 'publish'
  if (!isPublic && !canEditPost(await whoIsAsking(), attachment.post)) throw notFound
  const file = uploadsPath('public', relative)
  const info = await stat(file).catch(() => null)
  if (!info) throw notFound
  return {
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    mimeType: attachment.mimeType,
    size: info.size,
    etag: `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
    isPublic,
  }
}

/** Removes attachments, their rows and both their files (the command line undoes a failed import with it). */
export async function removeAttachments(ids: number[]): Promise<void> {
  const db = getDb()
  const rows = await db.attachment.findMany({ where: { id: { in: ids } }, select: { filePath: true } })
  await db.attachment.deleteMany({ where: { id: { in: ids } } })
  await Promise.all(rows.flatMap(({ filePath }) => [rm(uploadsPath('originals', filePath), { force: true }), rm(uploadsPath('public', filePath), { force: true })]))
}
