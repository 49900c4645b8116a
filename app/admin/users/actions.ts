'use server'

import { revalidatePath } from 'next/cache'
import { z } from 'zod'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { idSchema } from '@/lib/admin/forms'
import { parseOrThrow } from '@/lib/http/params'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { addUser, changeUserRole } from '@/lib/admin/users'
import { ROLES } from '@/lib/auth/capabilities'
import { newUserSchema } from '@/lib/users'

export async function addUserAction(values: unknown): Promise<ActionResult<number>> {
  return runAction('addUser', async () => {
    const id = await addUser(await getSessionActorOrThrow(), parseOrThrow(newUserSchema, values))
    revalidatePath('/admin/users')
    return id
  })
}

export async function changeRoleAction(userId: unknown, role: unknown): Promise<ActionResult<null>> {
  return runAction('changeRole', async () => {
    await changeUserRole(await getSessionActorOrThrow(), parseOrThrow(idSchema, userId), parseOrThrow(z.object({ role: z.enum(ROLES) }), { role }).role)
    revalidatePath('/admin/users')
    return null
  })
}
