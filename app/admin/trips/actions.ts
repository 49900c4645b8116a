'use server'

import { revalidatePath } from 'next/cache'
import { z } from 'zod'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { idSchema } from '@/lib/admin/forms'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { ApiError } from '@/lib/http/errors'
import { parseOrThrow } from '@/lib/http/params'
import { deleteTrip, updateTrip } from '@/lib/trips/manage'
import { acceptTripPhotos, parseReviewRequest, type AcceptedPlacements } from '@/lib/trips/review-photos'

export async function updateTripAction(id: unknown, values: Record<string, unknown>): Promise<ActionResult<null>> {
  return runAction('updateTrip', async () => {
    await updateTrip(await getSessionActorOrThrow(), parseOrThrow(idSchema, id), values)
    revalidatePath('/admin/trips')
    return null
  })
}

export async function deleteTripAction(id: unknown): Promise<ActionResult<null>> {
  return runAction('deleteTrip', async () => {
    await deleteTrip(await getSessionActorOrThrow(), parseOrThrow(idSchema, id))
    revalidatePath('/admin/trips')
    return null
  })
}

const reviewQuerySchema = z.object({ offset: z.string().max(20), gap: z.string().max(20), posts: z.string().max(10_000), hand: z.string().max(100) }).partial()

/** Places the photos the editor accepted, as the review of the same address proposes them now (review-photos.ts). */
export async function acceptTripPhotosAction(tripId: unknown, query: unknown, photoIds: unknown): Promise<ActionResult<AcceptedPlacements>> {
  return runAction('acceptTripPhotos', async () => {
    const { request, errors } = parseReviewRequest(parseOrThrow(reviewQuerySchema, query))
    if (Object.keys(errors).length > 0) throw new ApiError('rest_invalid_param', 'Please correct the fields marked.', { params: errors })
    const id = parseOrThrow(idSchema, tripId)
    const placed = await acceptTripPhotos(await getSessionActorOrThrow(), id, request, parseOrThrow(z.array(idSchema).max(100_000), photoIds))
    revalidatePath(`/admin/trips/${id}/photos`)
    return placed
  })
}
