import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { requireSessionActor } from '@/lib/admin/session'
import { listUsers } from '@/lib/admin/users'
import { canManageUsers, ROLES } from '@/lib/auth/capabilities'
import { Users } from './_components/users'

export const metadata: Metadata = { title: 'Users' }

// GET /admin/users – administrators only: every user, adding users, changing roles
export default async function UsersPage() {
  const actor = await requireSessionActor('/admin/users')
  if (!canManageUsers(actor)) notFound()
  return (
    <>
      <h1>Users</h1>
      <Users users={await listUsers(actor)} roles={[...ROLES]} currentUserId={actor.id} />
    </>
  )
}
