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
  /** in neither store: a public copy is not made of an image whose metadata could not be removed */
  missing: number
  /** with verify: at the destination, but not the same bytes as at the source (copied again) */
  mismatched: number
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

export async function moveStorage(
  to: StorageKind,
  { verify = false, onProgress }: { verify?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<MoveSummary> {
  const [source, target] = [storeOf(to === 's3' ? 'disk' : 's3'), storeOf(to)]
  const attachments = await getDb().attachment.findMany({
    orderBy: { id: 'asc' },
    select: { filePath: true, mimeType: true, renditions: { select: { fileName: true, format: true } } },
  })
  const files: { area: Area; key: string; mimeType: string }[] = attachments.flatMap(({ filePath, mimeType, renditions }) => [
    { area: 'originals' as const, key: filePath, mimeType },
    { area: 'public' as const, key: filePath, mimeType },
    ...renditions.map((r) => ({ area: 'renditions' as const, key: r.fileName, mimeType: MIME_TYPES[r.format as RenditionFormat] })),
  ])
  const summary: MoveSummary = { files: files.length, copied: 0, present: 0, missing: 0, mismatched: 0 }
  await mkdir(incomingPath(), { recursive: true, mode: 0o700 })
  onProgress?.(0, files.length)
  for (const [i, { area, key, mimeType }] of files.entries()) {
    const [from, there] = await Promise.all([source.stat(area, key), target.stat(area, key)])
    const bytes = from && (verify || !there || there.size !== from.size) ? await source.read(area, key) : null
    if (!from) {
      if (there) summary.present++
      else summary.missing++
    } else if (there && there.size === from.size && (!bytes || sha256(bytes) === sha256((await target.read(area, key))!))) {
      summary.present++
    } else {
      if (there && there.size === from.size) summary.mismatched++
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
    }
    onProgress?.(i + 1, files.length)
  }
  return summary
}
