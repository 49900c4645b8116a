'use server'

import { revalidatePath } from 'next/cache'
import { z } from 'zod'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { idSchema } from '@/lib/admin/forms'
import { parseOrThrow } from '@/lib/http/params'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { BULK_EDITS, bulkEditPosts, type BulkReport } from '@/lib/admin/bulk'
import { importLocationsFromMedia, type LocateReport } from '@/lib/places/locate'

// The posts list's bulk actions. lib/admin/bulk.ts and lib/places/locate.ts decide, post by post, what the signed-in
// user may change.

const selectionSchema = z.object({
  // One page of the list is selected at a time; more than that is not the admin's doing.
  postIds: z.array(idSchema).min(1, 'select at least one post').max(500),
  missingOnly: z.boolean(),
})

export async function importLocationsFromMediaAction(postIds: unknown, missingOnly: unknown): Promise<ActionResult<LocateReport>> {
  return runAction('importLocationsFromMedia', async () => {
    const input = parseOrThrow(selectionSchema, { postIds, missingOnly })
    return importLocationsFromMedia(await getSessionActorOrThrow(), input.postIds, { missingOnly: input.missingOnly })
  })
}

const bulkEditSchema = z.object({
  postIds: selectionSchema.shape.postIds,
  edit: z.enum(BULK_EDITS, { error: 'choose a bulk action' }),
  categoryId: idSchema.optional(),
  tagName: z.string().optional(),
})

export async function bulkEditAction(
  postIds: unknown,
  edit: unknown,
  term: { categoryId?: unknown; tagName?: unknown } = {},
): Promise<ActionResult<BulkReport>> {
  return runAction('bulkEdit', async () => {
    const input = parseOrThrow(bulkEditSchema, { postIds, edit, ...term })
    const report = await bulkEditPosts(await getSessionActorOrThrow(), input.postIds, input.edit, { categoryId: input.categoryId, tagName: input.tagName })
    // Categories and tags added show in the list's filters; statuses in its counts.
    revalidatePath('/admin')
    return report
  })
}
