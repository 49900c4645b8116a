import type { Metadata } from 'next'
import { listMyAppPasswords } from '@/lib/admin/app-passwords'
import { requireSessionActor } from '@/lib/admin/session'
import { getSiteSettings } from '@/lib/site'
import { AppPasswords } from './_components/app-passwords'

export const metadata: Metadata = { title: 'Application passwords' }

// GET /admin/app-passwords – the signed-in user's application passwords
export default async function AppPasswordsPage() {
  const actor = await requireSessionActor('/admin/app-passwords')
  return (
    <>
      <h1>Application passwords</h1>
      <p>
        Programs call the REST routes as you with HTTP Basic authentication: your email and an application password. They get the rights of your role (
        {actor.role}). Revoke a password to shut its program out at once.
      </p>
      <AppPasswords email={actor.email} passwords={await listMyAppPasswords(actor)} timezone={(await getSiteSettings()).timezone} />
    </>
  )
}
