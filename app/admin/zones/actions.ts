'use server'

import { revalidatePath } from 'next/cache'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { idSchema } from '@/lib/admin/forms'
import { parseOrThrow } from '@/lib/http/params'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { addZone, removeZone } from '@/lib/places/zones'

/** A number field as typed; empty is missing, and lib/places/zones.ts says so. */
const numberField = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : undefined)

export async function addZoneAction(values: Record<string, unknown>): Promise<ActionResult<{ id: number; changed: number }>> {
  return runAction('addZone', async () => {
    const input = {
      ...values,
      latitude: numberField(values.latitude),
      longitude: numberField(values.longitude),
      radiusMetres: numberField(values.radiusMetres),
    }
    const { zone, changed } = await addZone(await getSessionActorOrThrow(), input)
    revalidatePath('/admin/zones')
    return { id: zone.id, changed }
  })
}

export async function removeZoneAction(id: unknown): Promise<ActionResult<{ changed: number }>> {
  return runAction('removeZone', async () => {
    const result = await removeZone(await getSessionActorOrThrow(), parseOrThrow(idSchema, id))
    revalidatePath('/admin/zones')
    return result
  })
}
