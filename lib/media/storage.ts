import 'server-only'
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { copyFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fileTypeFromFile } from 'file-type'
import { getConfig } from '../config'
import { getDb } from '../db'
import { bodyLimit } from '../http/body-limit'
import { ApiError } from '../http/errors'
import { slugify } from '../slugs'
import { readGps, type Gps } from './exif-gps'
import { HeicDecodeTimeout } from './heic-pool'
import { createRenditions, removeRenditionFiles, UndecodableImage, type Rendition } from './renditions'
import { incomingPath, mediaStore } from './store'
import { stripMetadata } from './strip-location'

// An upload is kept (lib/media/store.ts) as its original, GPS included, never served, and a public copy without
// location metadata (or the original again, with KEEP_IMAGE_METADATA), both under `YYYY/MM/<id>-<name>.<ext>`, and
// its sizes (lib/media/renditions.ts). It arrives in UPLOADS_DIR/incoming, local scratch, and is put in the store
// only when whole and accepted.

/** The image types Places accepts, by the type sniffed from the file's bytes, with the extension it stores. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/tiff': 'tif',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'image/avif': 'avif',
}

export type AttachmentDto = {
  id: number
  postId: number
  position: number
  title: string
  /** shown under the photo on its post's page (WordPress's caption) */
  caption: string
  /** read out in its place (WordPress's alt text); empty: the title is */
  altText: string
  mimeType: string
  size: number
  /** where visitors load it */
  url: string
  /** its smallest size, a JPEG any browser shows (HEIC and TIFF too); null when the image could not be decoded */
  thumbnailUrl: string | null
  latitude: number | null
  longitude: number | null
  /** where the point came from: the file's EXIF GPS, the photo's time on a GPS track, or an editor's hand; null without a point */
  locationSource: LocationSource | null
}

export type LocationSource = 'gps' | 'track' | 'hand'

export type NewUpload = {
  postId: number
  /** the name the client gave: used, sanitised, in the stored name and as the default title */
  filename: string
  title?: string
  body: AsyncIterable<Uint8Array>
}

export function attachmentUrl(filePath: string): string {
  return `${getConfig().siteUrl}/uploads/${filePath.split('/').map(encodeURIComponent).join('/')}`
}

/** Where a size (lib/media/renditions.ts) is served: to anyone for a published post's, else to its editors. */
export function renditionUrl(fileName: string): string {
  return `${getConfig().siteUrl}/uploads/renditions/${fileName}`
}

/**
 * An upload whose pixels do not decode. WordPress's media endpoint reports what it cannot handle as
 * `rest_upload_unknown_error`, so its clients know the code; the status is a 422, as the request itself was fine.
 */
function undecodable(reason: string | null): ApiError {
  const because = reason === null ? '' : ` (${reason})`
  return new ApiError('rest_upload_unknown_error', `This file is damaged or incomplete: it could not be read as an image${because}.`, { reason })
}

/**
 * A HEIC that held the decoder past its time limit (lib/media/heic-pool.ts), which stopped it. Its own code, apart from
 * a damaged file's: the photo may well be fine, and saved as JPEG it would go.
 */
export function heicTimeLimitRefusal({ timeLimitMs }: HeicDecodeTimeout): ApiError {
  const seconds = Math.ceil(timeLimitMs / 1000)
  return new ApiError(
    'rest_upload_heic_time_limit',
    `The HEIC decoder was stopped on this file at its time limit of ${seconds} second${seconds === 1 ? '' : 's'}. Save the photo as JPEG and upload that.`,
    { timeLimitSeconds: seconds },
  )
}

/** `C:\\photos\\beach.jpg` or `2020/05/beach.jpg` → `beach`, whichever system's folders the client sent. */
function stem(filename: string): string {
  return (filename.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '')
}

function storedName(filename: string, ext: string, now: Date): string {
  // Without the prefix this gives (a photo exported and imported again keeps its name, not two prefixes).
  const base =
    slugify(stem(filename).replace(/^[0-9a-f]{8}-(?=.)/, ''))
      .replace(/[^a-z0-9_-]/g, '')
      .slice(0, 60) || 'image'
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `${now.getUTCFullYear()}/${month}/${randomUUID().slice(0, 8)}-${base}.${ext}`
}

/**
 * An image accepted and in the store, not yet recorded: `discard()` removes its files. `undecodable`: why its
 * pixels did not decode, when it was kept all the same (no sizes then).
 */
export type StoredImage = {
  filePath: string
  mimeType: string
  size: number
  gps: Gps | null
  renditions: Rendition[]
  undecodable?: string
  discard: () => Promise<void>
}

/**
 * Stores an image: streamed to incoming/ under the size limit, its type decided from its bytes, decoded whole
 * while its sizes are made (one that does not decode is refused, unless `keepUndecodable`: then it is kept without
 * sizes, as a WordPress import keeps what WordPress had), its GPS read once, then the original and the copy for
 * visitors moved into place. A refused or failed file leaves nothing.
 */
export async function storeImage(
  filename: string,
  body: AsyncIterable<Uint8Array>,
  { keepUndecodable = false }: { keepUndecodable?: boolean } = {},
): Promise<StoredImage> {
  const { uploadMaxBytes, keepImageMetadata } = getConfig()
  // Readable by this user only: an original keeps its GPS (the folders above, data/, are made so too).
  await mkdir(incomingPath(), { recursive: true, mode: 0o700 })
  const incoming = incomingPath(randomUUID())
  const publicTemp = `${incoming}.public`
  let stored: string | undefined
  let renditions: Rendition[] = []
  const discard = async () => {
    // Each tried whatever the others do: a store that fails here must not hide why the upload failed, nor keep files.
    const removals = await Promise.allSettled([
      ...[incoming, publicTemp].map((file) => rm(file, { force: true })),
      ...(stored === undefined ? [] : [mediaStore().remove('originals', [stored]), mediaStore().remove('public', [stored])]),
      removeRenditionFiles(renditions.map((r) => r.fileName)),
    ])
    for (const removal of removals) if (removal.status === 'rejected') console.error('An upload’s files could not all be removed:', removal.reason)
  }
  try {
    const tooBig = `The file is larger than the upload limit of ${Math.floor(uploadMaxBytes / 1024 / 1024)} MB.`
    await pipeline(body, bodyLimit(uploadMaxBytes, tooBig), createWriteStream(incoming, { flags: 'wx', mode: 0o600 }))
    const type = await fileTypeFromFile(incoming)
    const ext = type && IMAGE_TYPES[type.mime]
    if (!type || !ext) {
      throw new ApiError('rest_upload_invalid_type', 'This file is not an image Places accepts (JPEG, PNG, GIF, WebP, TIFF, HEIC or AVIF).')
    }
    const original = await readFile(incoming)
    const relative = storedName(filename, ext, new Date())
    // Before anything is in place: the sizes need the one full decode an upload gets, and a file whose pixels do
    // not decode (a JPEG cut off before its end) would be a broken picture everywhere.
    let undecodableReason: string | undefined
    renditions = await createRenditions(original, type.mime, relative).catch((error: unknown) => {
      if (error instanceof UndecodableImage && keepUndecodable) {
        undecodableReason = error.reason ?? 'it cannot be decoded'
        return []
      }
      if (error instanceof UndecodableImage) throw undecodable(error.reason)
      if (error instanceof HeicDecodeTimeout) throw heicTimeLimitRefusal(error)
      throw error
    })
    const gps = readGps(original)

    await copyFile(incoming, publicTemp)
    const hasPublicCopy = keepImageMetadata || (await stripMetadata(publicTemp))
    stored = relative
    await mediaStore().put('originals', relative, incoming, type.mime)
    if (hasPublicCopy) await mediaStore().put('public', relative, publicTemp, type.mime)
    else await rm(publicTemp, { force: true })
    return {
      filePath: relative,
      mimeType: type.mime,
      size: original.byteLength,
      gps,
      renditions,
      discard,
      ...(undecodableReason ? { undecodable: undecodableReason } : {}),
    }
  } catch (error) {
    await discard()
    throw error
  }
}

/** An attachment's point as its file's GPS gives it. */
export function pointOf(gps: Gps | null): { latitude: number | null; longitude: number | null; locationSource: LocationSource | null } {
  return gps ? { ...gps, locationSource: 'gps' } : { latitude: null, longitude: null, locationSource: null }
}

/** A title from a client: control characters (NUL among them, which PostgreSQL refuses) go, spaces are trimmed. */
export function cleanTitle(title: string): string {
  return title
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200)
}

export function titleFromFilename(filename: string): string {
  return cleanTitle(stem(filename))
}

/** The order of a post's attachments (docs/api.md): position, as WordPress's menu_order, then upload time, then id. */
export const ATTACHMENT_ORDER = [{ position: 'asc' }, { createdAt: 'asc' }, { id: 'asc' }] as const

export const ATTACHMENT_FIELDS = {
  id: true,
  postId: true,
  position: true,
  title: true,
  caption: true,
  altText: true,
  mimeType: true,
  size: true,
  filePath: true,
  latitude: true,
  longitude: true,
  locationSource: true,
  // The thumbnail: the smallest JPEG.
  renditions: { select: { fileName: true }, where: { format: 'jpeg' }, orderBy: { width: 'asc' }, take: 1 },
} as const

/**
 * Stores an uploaded image for a post and records it as its last attachment. All or nothing: a refused or failed
 * upload leaves no file and no row behind. The caller has checked that the actor may edit the post.
 */
export async function storeAttachment({ postId, filename, title, body }: NewUpload): Promise<AttachmentDto> {
  const image = await storeImage(filename, body)
  try {
    const db = getDb()
    const last = await db.attachment.aggregate({ where: { postId }, _max: { position: true } })
    const row = await db.attachment.create({
      select: ATTACHMENT_FIELDS,
      data: {
        postId,
        position: (last._max.position ?? -1) + 1,
        title: title === undefined ? titleFromFilename(filename) : cleanTitle(title),
        filePath: image.filePath,
        mimeType: image.mimeType,
        size: image.size,
        ...pointOf(image.gps),
        renditions: { create: image.renditions },
      },
    })
    return toAttachmentDto(row)
  } catch (error) {
    await image.discard()
    throw error
  }
}

type AttachmentRow = Omit<AttachmentDto, 'url' | 'thumbnailUrl' | 'locationSource'> & {
  filePath: string
  locationSource: string | null
  renditions: { fileName: string }[]
}

export function toAttachmentDto({ filePath, renditions, locationSource, ...row }: AttachmentRow): AttachmentDto {
  const [thumbnail] = renditions
  return {
    ...row,
    locationSource: locationSource === 'track' || locationSource === 'hand' ? locationSource : locationSource === null ? null : 'gps',
    url: attachmentUrl(filePath),
    thumbnailUrl: thumbnail ? renditionUrl(thumbnail.fileName) : null,
  }
}

/**
 * Removes what uploads cut off by a crash left in incoming/ (a server stopped cleanly leaves nothing there). Only
 * files untouched for `staleSeconds` go: another instance sharing the folder may be writing the others right now.
 */
export async function removeStaleIncoming(staleSeconds: number): Promise<number> {
  const folder = incomingPath()
  const names = await readdir(folder).catch(() => [] as string[])
  const cutoff = Date.now() - staleSeconds * 1000
  let removed = 0
  for (const name of names) {
    // The Import screen's uploads wait for their user for a day (lib/admin/import.ts removes them).
    if (name.startsWith('import-')) continue
    const file = path.join(folder, name)
    const info = await stat(file).catch(() => null)
    if (info && info.mtimeMs <= cutoff) {
      await rm(file, { force: true })
      removed++
    }
  }
  return removed
}
