import { unserialize } from 'php-serialize'

// An attachment's `_wp_attachment_metadata`, as WordPress stores it (PHP's serialize(), in which a string's length
// counts its UTF-8 bytes) and exports it. Since WordPress 5.3 an image larger than 2,560 px is kept as a scaled copy
// (`name-scaled.jpg`, with no EXIF when GD made it) and one turned upright by its EXIF orientation as
// `name-rotated.jpg`; `original_image` names the untouched upload, in the same folder.

export type AttachmentMetadata = {
  /** the file the attachment shows, relative to the uploads folder, as _wp_attached_file */
  file: string | null
  /** the upload's own file name (no folder), where WordPress made a copy from it */
  originalImage: string | null
}

export class AttachmentMetadataError extends Error {}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

/** Throws AttachmentMetadataError when `serialized` is not a PHP-serialized array. */
export function readAttachmentMetadata(serialized: string): AttachmentMetadata {
  let value: unknown
  try {
    // A Buffer, so that lengths are counted in bytes, as PHP wrote them.
    value = unserialize(Buffer.from(serialized.trim(), 'utf8'))
  } catch (error) {
    throw new AttachmentMetadataError((error as Error).message)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new AttachmentMetadataError('it is not a serialized array of fields')
  const fields = value as Record<string, unknown>
  return { file: text(fields.file), originalImage: text(fields.original_image) }
}

/**
 * The path, relative to the uploads folder, of the upload a scaled or rotated `attached` file was made from, or null
 * when WordPress kept the upload itself. `original_image` is a bare name; anything else in it is dropped.
 */
export function originalOf(attached: string, metadata: AttachmentMetadata): string | null {
  const name = metadata.originalImage?.split(/[\\/]/).pop()
  if (!name || name === '.' || name === '..') return null
  const folder = attached.includes('/') ? attached.slice(0, attached.lastIndexOf('/') + 1) : ''
  const original = folder + name
  return original === attached ? null : original
}
