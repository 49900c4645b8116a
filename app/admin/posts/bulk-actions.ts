'use server'

import { z } from 'zod'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { idSchema } from '@/lib/admin/forms'
import { parseOrThrow } from '@/lib/http/params'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { importLocationsFromMedia, type LocateReport } from '@/lib/places/locate'

// The posts list's bulk actions. lib/places/locate.ts decides, post by post, what the signed-in user may change.

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
