'use server'

import { redirect } from 'next/navigation'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { signOutEverywhere } from '@/lib/users'

// "Sign out everywhere": ends every session of the signed-in user, this browser's too (lib/auth/sessions.ts).
export async function signOutEverywhereAction(): Promise<void> {
  await signOutEverywhere((await getSessionActorOrThrow()).email)
  redirect('/signin')
}
