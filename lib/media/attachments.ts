import 'server-only'
import { canEditPost, canUploadFiles, type Actor, type PostForCapability } from '../auth/capabilities'
import { POST_FOR_CAPABILITY, requirePostAccess } from '../auth/post-access'
import { getDb, transaction } from '../db'
import { ApiError, forbidden, invalidParams, notSignedIn } from '../http/errors'
import { MIME_TYPES, RENDITION_NAME, removeRenditionFiles, type RenditionFormat } from './renditions'
import { ATTACHMENT_FIELDS, ATTACHMENT_ORDER, cleanTitle, storeAttachment, toAttachmentDto, type AttachmentDto, type NewUpload } from './storage'
import { mediaStore, type Area, type StoredFile } from './store'
import { runUpload } from './upload-slots'

/**
 * Adds an image to a post, for someone who may upload files (`upload_files`) and edit the post, checked in that
 * order as WordPress's media endpoint does: a contributor is refused whatever the post. A post in the Trash takes
 * uploads from who may edit it, as WordPress's media endpoint does (only its editor screen asks for a restore first).
 * A user runs a few uploads at once at most (lib/media/upload-slots.ts): one more is a 429.
 */
export async function uploadAttachment(actor: Actor | null, upload: NewUpload): Promise<AttachmentDto> {
  if (!actor) throw notSignedIn()
  // WordPress answers this with status 400; a refusal of a right is a 403 everywhere else in Places (docs/api.md).
  if (!canUploadFiles(actor)) throw new ApiError('rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.')
  await requirePostAccess(getDb(), actor, upload.postId, 'edit')
  return runUpload(actor.id, () => storeAttachment(upload))
}

// The order of a post's attachments (docs/api.md, Ordering), which GET /attachment-exif-gps walks (lib/media/attachment-gps.ts):
// position (WordPress's menu_order), then upload time, then id.
/** A post's attachments in their order, for someone who may edit it. */
export async function listPostAttachments(actor: Actor | null, postId: number): Promise<AttachmentDto[]> {
  await requirePostAccess(getDb(), actor, postId, 'edit')
  const rows = await getDb().attachment.findMany({ where: { postId }, orderBy: [...ATTACHMENT_ORDER], select: ATTACHMENT_FIELDS })
  return rows.map(toAttachmentDto)
}

/**
 * Puts a post's attachments in the order given, which must name each of them once; returns them in that order.
 * Positions become 0, 1, 2…, so the order no longer depends on upload times.
 */
export async function reorderAttachments(actor: Actor | null, postId: number, orderedIds: number[]): Promise<AttachmentDto[]> {
  await requirePostAccess(getDb(), actor, postId, 'edit')
  await transaction(async (tx) => {
    const current = await tx.attachment.findMany({ where: { postId }, select: { id: true } })
    const wanted = new Set(orderedIds)
    if (wanted.size !== orderedIds.length || wanted.size !== current.length || current.some(({ id }) => !wanted.has(id))) {
      throw invalidParams({ order: 'must name each of the post’s attachments once; reload the page' })
    }
    for (const [position, id] of orderedIds.entries()) await tx.attachment.update({ where: { id }, data: { position } })
  })
  return listPostAttachments(actor, postId)
}

async function findAttachmentForEditor(actor: Actor | null, attachmentId: number): Promise<{ postId: number }> {
  if (!actor) throw notSignedIn()
  const attachment = await getDb().attachment.findUnique({ where: { id: attachmentId }, select: { postId: true } })
  // One that does not exist is refused alike: nothing is revealed.
  if (!attachment) throw forbidden()
  await requirePostAccess(getDb(), actor, attachment.postId, 'edit')
  return attachment
}

/** Gives an attachment a new title, for someone who may edit its post. */
export async function renameAttachment(actor: Actor | null, attachmentId: number, title: string): Promise<AttachmentDto> {
  await findAttachmentForEditor(actor, attachmentId)
  return toAttachmentDto(await getDb().attachment.update({ where: { id: attachmentId }, data: { title: cleanTitle(title) }, select: ATTACHMENT_FIELDS }))
}

/** Sets an attachment's caption and alt text, for someone who may edit its post. */
export async function describeAttachment(actor: Actor | null, attachmentId: number, text: { caption: string; altText: string }): Promise<AttachmentDto> {
  await findAttachmentForEditor(actor, attachmentId)
  const data = { caption: text.caption, altText: text.altText }
  return toAttachmentDto(await getDb().attachment.update({ where: { id: attachmentId }, data, select: ATTACHMENT_FIELDS }))
}

/** Removes an attachment, its row and both its files, for someone who may edit its post; returns the post's id. */
export async function deleteAttachment(actor: Actor | null, attachmentId: number): Promise<number> {
  const { postId } = await findAttachmentForEditor(actor, attachmentId)
  await removeAttachments([attachmentId])
  return postId
}

const STORED_PATH = /^\d{4}\/\d{2}\/[a-z0-9_-]+\.[a-z]{3,4}$/

export type ImageFile = StoredFile & {
  mimeType: string
  isPublic: boolean
  /** a size under a name made from its bytes (lib/media/renditions.ts): what is at its address never changes */
  immutable: boolean
}

const POST_ACCESS = { select: POST_FOR_CAPABILITY } as const

/**
 * An uploaded image as visitors load it, at `relative` under /uploads/: the copy without location metadata
 * (`YYYY/MM/name.ext`) or one of its sizes (`renditions/<hash>.jpg|webp`). Anyone may load the images of published
 * posts; the images of other posts only those who may edit them. Anything else is not found.
 */
export async function openPublicImage(relative: string, whoIsAsking: () => Promise<Actor | null>): Promise<ImageFile> {
  const notFound = new ApiError('rest_no_route', 'No file was found at this address.')
  const found = await findImage(relative)
  if (!found) throw notFound
  const isPublic = found.post.status === 'publish'
  if (!isPublic && !canEditPost(await whoIsAsking(), found.post)) throw notFound
  const file = await mediaStore().stat(found.area, found.key)
  if (!file) throw notFound
  return { ...file, mimeType: found.mimeType, isPublic, immutable: found.area === 'renditions' }
}

async function findImage(relative: string): Promise<{ area: Area; key: string; mimeType: string; post: PostForCapability } | null> {
  const db = getDb()
  const [folder, name, ...rest] = relative.split('/')
  if (folder === 'renditions' && name !== undefined && rest.length === 0 && RENDITION_NAME.test(name)) {
    const rendition = await db.attachmentRendition.findUnique({
      where: { fileName: name },
      select: { format: true, attachment: { select: { post: POST_ACCESS } } },
    })
    const mimeType = rendition && MIME_TYPES[rendition.format as RenditionFormat]
    return rendition && mimeType ? { area: 'renditions', key: name, mimeType, post: rendition.attachment.post } : null
  }
  if (!STORED_PATH.test(relative)) return null
  const attachment = await db.attachment.findUnique({ where: { filePath: relative }, select: { mimeType: true, post: POST_ACCESS } })
  return attachment && { area: 'public', key: relative, mimeType: attachment.mimeType, post: attachment.post }
}

/** Removes attachments, their rows and all their files (the command line undoes a failed import with it). */
export async function removeAttachments(ids: number[]): Promise<void> {
  const db = getDb()
  const rows = await db.attachment.findMany({ where: { id: { in: ids } }, select: ATTACHMENT_FILES })
  await db.attachment.deleteMany({ where: { id: { in: ids } } })
  await removeAttachmentFiles(rows)
}

/** What removeAttachmentFiles needs of an attachment: select it before the rows go. */
export const ATTACHMENT_FILES = { filePath: true, renditions: { select: { fileName: true } } } as const

/** Removes the files of attachments whose rows are gone: the original, the public copy and the sizes. */
export async function removeAttachmentFiles(attachments: { filePath: string; renditions: { fileName: string }[] }[]): Promise<void> {
  const filePaths = attachments.map(({ filePath }) => filePath)
  await Promise.all([
    mediaStore().remove('originals', filePaths),
    mediaStore().remove('public', filePaths),
    removeRenditionFiles(attachments.flatMap(({ renditions }) => renditions.map((r) => r.fileName))),
  ])
}
