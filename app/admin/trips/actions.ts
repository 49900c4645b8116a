'use server'

import { revalidatePath } from 'next/cache'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { idSchema } from '@/lib/admin/forms'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { parseOrThrow } from '@/lib/http/params'
import { deleteTrip, updateTrip } from '@/lib/trips/manage'

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
