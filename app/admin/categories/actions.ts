'use server'

import { revalidatePath } from 'next/cache'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { setCategoryColor } from '@/lib/admin/categories'
import { getSessionActorOrThrow } from '@/lib/admin/session'

/** A top-level category's colour, or null for the palette's. */
export async function setCategoryColorAction(id: unknown, color: unknown): Promise<ActionResult> {
  return runAction('setCategoryColor', async () => {
    await setCategoryColor(await getSessionActorOrThrow(), { id, color })
    // The map and every post page show the colours.
    revalidatePath('/', 'layout')
    return null
  })
}
