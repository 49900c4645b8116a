'use server'

import { revalidatePath } from 'next/cache'
import { z } from 'zod'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { createMyAppPassword, revokeMyAppPassword } from '@/lib/admin/app-passwords'
import { appPasswordNameSchema } from '@/lib/admin/forms'
import { parseOrThrow } from '@/lib/http/params'
import { getSessionActorOrThrow } from '@/lib/admin/session'

export type CreatedAppPassword = { name: string; password: string }

export async function createAppPasswordAction(values: unknown): Promise<ActionResult<CreatedAppPassword>> {
  return runAction('createAppPassword', async () => {
    const { name } = parseOrThrow(appPasswordNameSchema, values)
    const created = await createMyAppPassword(await getSessionActorOrThrow(), name)
    revalidatePath('/admin/app-passwords')
    return created
  })
}

export async function revokeAppPasswordAction(uuid: unknown): Promise<ActionResult<null>> {
  return runAction('revokeAppPassword', async () => {
    await revokeMyAppPassword(await getSessionActorOrThrow(), parseOrThrow(z.uuid(), uuid))
    revalidatePath('/admin/app-passwords')
    return null
  })
}
