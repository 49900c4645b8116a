import 'server-only'
import { canManageUsers, isRole, type Actor, type Role } from '../auth/capabilities'
import { getDb, lockAdministrators, transaction } from '../db'
import { ApiError, forbidden, invalidParams } from '../http/errors'
import { createUser, type NewUser } from '../users'

export type UserRow = { id: number; email: string; name: string; role: string; createdAt: string; postCount: number; hasPassword: boolean }

function assertMayManageUsers(actor: Actor): void {
  if (!canManageUsers(actor)) throw forbidden()
}

/** Every user, for administrators. */
export async function listUsers(actor: Actor): Promise<UserRow[]> {
  assertMayManageUsers(actor)
  const rows = await getDb().user.findMany({
    orderBy: { id: 'asc' },
    select: { id: true, email: true, name: true, role: true, createdAt: true, passwordHash: true, _count: { select: { posts: true } } },
  })
  return rows.map(({ passwordHash, _count, createdAt, ...row }) => ({
    ...row,
    createdAt: createdAt.toISOString(),
    postCount: _count.posts,
    hasPassword: passwordHash !== null,
  }))
}

/** Adds a user (lib/users.ts checks the input); returns the new id. */
export async function addUser(actor: Actor, input: NewUser): Promise<number> {
  assertMayManageUsers(actor)
  try {
    return await createUser(input)
  } catch (error) {
    if (error instanceof ApiError && error.code === 'existing_user_email') throw invalidParams({ email: 'is already the email of another user' })
    throw error
  }
}

/**
 * Changes a user's role, for administrators; the user has the new rights on their next request. The last
 * administrator keeps the role, so that someone can always manage users: demoting them is refused.
 */
export async function changeUserRole(actor: Actor, userId: number, role: Role): Promise<void> {
  assertMayManageUsers(actor)
  if (!isRole(role)) throw invalidParams({ role: 'is not a role' })
  await transaction(async (tx) => {
    // Lock the administrators first, so that two administrators demoting each other at once cannot both succeed:
    // the count below sees the other's commit.
    await lockAdministrators(tx)
    const user = await tx.user.findUnique({ where: { id: userId }, select: { role: true } })
    if (!user) throw new ApiError('rest_user_invalid_id', 'There is no such user.')
    if (user.role === 'administrator' && role !== 'administrator') {
      const administrators = await tx.user.count({ where: { role: 'administrator' } })
      if (administrators <= 1) {
        throw new ApiError('last_administrator', 'This is the last administrator: make another user an administrator first.', {
          params: { role: 'must stay administrator: there is no other' },
        })
      }
    }
    await tx.user.update({ where: { id: userId }, data: { role } })
  })
}
