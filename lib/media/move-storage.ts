import 'server-only'
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { getDb } from '../db'
import { MIME_TYPES, type RenditionFormat } from './renditions'
import { incomingPath, storeOf, type Area, type StorageKind } from './store'

// `places media move-storage --to s3|disk` (docs/cli.md): copies every file the database names (each attachment's
// original, public copy and sizes) from the other store into this one. A file already there at the same size is
// left (so a run cut short is resumed by running it again); with `verify`, every file's bytes are compared at both
// ends. Nothing is removed from the source; MEDIA_STORAGE is the switch, set by the operator after the copy.

export type MoveSummary = {
  /** files the database names */
  files: number
  copied: number
  /** already at the destination, the same size (and, with verify, the same bytes) */
  present: number
  /** in neither store: a public copy is not made of an image whose metadata could not be removed; any other is lost */
  missing: number
  /** at the destination, but another size (or, with verify, other bytes) than at the source: copied again */
  mismatched: number
}

type StoredFile = { area: Area; key: string; mimeType: string }

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

export async function moveStorage(
  to: StorageKind,
  { verify = false, onProgress }: { verify?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<MoveSummary> {
  const [source, target] = [storeOf(to === 's3' ? 'disk' : 's3'), storeOf(to)]
  const db = getDb()
  const attachments = await db.attachment.findMany({
    orderBy: { id: 'asc' },
    select: { id: true, filePath: true, mimeType: true, renditions: { select: { fileName: true, format: true } } },
  })
  const filesOf = ({ filePath, mimeType, renditions }: (typeof attachments)[number]): StoredFile[] => [
    { area: 'originals', key: filePath, mimeType },
    { area: 'public', key: filePath, mimeType },
    ...renditions.map((r) => ({ area: 'renditions' as const, key: r.fileName, mimeType: MIME_TYPES[r.format as RenditionFormat] })),
  ]
  const total = attachments.reduce((sum, attachment) => sum + filesOf(attachment).length, 0)
  const summary: MoveSummary = { files: total, copied: 0, present: 0, missing: 0, mismatched: 0 }
  await mkdir(incomingPath(), { recursive: true, mode: 0o700 })
  let done = 0
  onProgress?.(0, total)

  /** Copies one file unless it is there already; says whether it copied. */
  async function copy({ area, key, mimeType }: StoredFile): Promise<boolean> {
    const [from, there] = await Promise.all([source.stat(area, key), target.stat(area, key)])
    const sameSize = there !== null && from !== null && there.size === from.size
    const bytes = from && (!sameSize || verify) ? await source.read(area, key) : null
    if (!from || (!sameSize && !bytes)) {
      // Not at the source (or gone from it since): a copy at the destination is all there is.
      summary[there ? 'present' : 'missing']++
      return false
    }
    if (sameSize && (!bytes || sha256(bytes) === sha256((await target.read(area, key)) ?? Buffer.alloc(0)))) {
      summary.present++
      return false
    }
    if (there) summary.mismatched++
    const temp = incomingPath(`${randomUUID()}.move`)
    try {
      await writeFile(temp, bytes!, { mode: 0o600 })
      await target.put(area, key, temp, mimeType)
    } finally {
      await rm(temp, { force: true })
    }
    const written = await target.stat(area, key)
    if (written?.size !== bytes!.length)
      throw new Error(`${area}/${key}: ${written?.size ?? 'no'} bytes at the destination after the copy, not ${bytes!.length}`)
    summary.copied++
    return true
  }

  for (const attachment of attachments) {
    const copied: StoredFile[] = []
    for (const file of filesOf(attachment)) {
      if (await copy(file)) copied.push(file)
      onProgress?.(++done, total)
    }
    // Deleted meanwhile through a server already on the destination: what was copied for it belongs to no one.
    if (copied.length > 0 && (await db.attachment.count({ where: { id: attachment.id } })) === 0) {
      for (const { area, key } of copied) await target.remove(area, [key])
    }
  }
  return summary
}
