import 'server-only'
import { getDb, transaction } from '../db'
import { HeicDecodeTimeout } from './heic-pool'
import { createRenditions, removeRenditionFiles, UndecodableImage } from './renditions'
import { mediaStore } from './store'

// `places media regenerate` (docs/cli.md), as `wp media regenerate`: makes every attachment's sizes anew from its
// original, for the images stored before sizes existed or after the way they are made changed. The same image gives
// the same bytes and so the same names: running it twice changes nothing.

export type RegenerateSummary = {
  /** attachments looked at */
  attachments: number
  /** that now have their sizes */
  regenerated: number
  /** whose original could not be decoded: they have no sizes, and no picture */
  undecodable: number
  /** whose original file is missing from the store: left as they were */
  missing: number
  /** HEICs the decoder did not finish within its time limit (lib/media/heic-pool.ts): left as they were */
  timedOut: number
}

export async function regenerateRenditions(onProgress?: (done: number, total: number) => void): Promise<RegenerateSummary> {
  const db = getDb()
  const attachments = await db.attachment.findMany({
    orderBy: { id: 'asc' },
    select: { id: true, filePath: true, mimeType: true, renditions: { select: { fileName: true } } },
  })
  const summary: RegenerateSummary = { attachments: attachments.length, regenerated: 0, undecodable: 0, missing: 0, timedOut: 0 }
  onProgress?.(0, attachments.length)
  for (const [i, attachment] of attachments.entries()) {
    const original = await mediaStore().read('originals', attachment.filePath)
    if (!original) {
      summary.missing++
    } else {
      // Stored before uploads were decoded first (or damaged since): no sizes, counted as undecodable.
      const inUse = new Set(attachment.renditions.map((r) => r.fileName))
      const made = await createRenditions(original, attachment.mimeType, attachment.filePath, { inUse }).catch((error: unknown) => {
        if (error instanceof UndecodableImage) return []
        if (error instanceof HeicDecodeTimeout) return null
        throw error
      })
      if (made === null) {
        summary.timedOut++
        onProgress?.(i + 1, attachments.length)
        continue
      }
      // The same names as recorded: nothing to write, and the data version (every public answer's cache) stays.
      const unchanged = sameNames(made, attachment.renditions)
      try {
        if (!unchanged)
          await transaction(async (tx) => {
            await tx.attachmentRendition.deleteMany({ where: { attachmentId: attachment.id } })
            if (made.length > 0) await tx.attachmentRendition.createMany({ data: made.map((r) => ({ ...r, attachmentId: attachment.id })) })
          })
      } catch (error) {
        // The attachment went meanwhile (deleted by an editor): its new files would belong to no one.
        const kept = new Set(attachment.renditions.map((r) => r.fileName))
        await removeRenditionFiles(made.map((r) => r.fileName).filter((name) => !kept.has(name)))
        throw error
      }
      const current = new Set(made.map((r) => r.fileName))
      await removeRenditionFiles(attachment.renditions.map((r) => r.fileName).filter((name) => !current.has(name)))
      if (made.length > 0) summary.regenerated++
      else summary.undecodable++
    }
    onProgress?.(i + 1, attachments.length)
  }
  return summary
}

function sameNames(made: { fileName: string }[], recorded: { fileName: string }[]): boolean {
  const names = new Set(recorded.map((r) => r.fileName))
  return made.length === recorded.length && made.every((r) => names.has(r.fileName))
}
