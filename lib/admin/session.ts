import 'server-only'
import { getServerSession } from 'next-auth'
import { redirect } from 'next/navigation'
import { cache } from 'react'
import { getAuthOptions } from '../auth/config'
import { notSignedIn } from '../http/errors'

/** The signed-in user as the admin sees them; `role` is the one in the database now, not the one at sign-in. */
export type AdminActor = { id: number; role: string; email: string; name: string }

/**
 * Who is signed in on this browser, or null. The session's user is read from the database on every request
 * (lib/auth/config.ts, lib/auth/sessions.ts), so a demoted user loses their rights at once, and a deleted one, or one
 * whose sessions were ended, is signed out. Read once per request (React's cache): the layout and the page ask alike.
 */
export const getSessionActor = cache(async (): Promise<AdminActor | null> => {
  const session = await getServerSession(getAuthOptions())
  return session?.user ?? null
})

/** For admin pages: the signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireSessionActor(returnTo: string): Promise<AdminActor> {
  const actor = await getSessionActor()
  if (!actor) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`)
  return actor
}

/** For server actions: the signed-in user, or a 401 ApiError. */
export async function getSessionActorOrThrow(): Promise<AdminActor> {
  const actor = await getSessionActor()
  if (!actor) throw notSignedIn()
  return actor
}
