import 'server-only'
import { createAppPasswordForUser, listAppPasswordsForUser, revokeAppPasswordForUser } from '../auth/app-passwords'
import type { Actor } from '../auth/capabilities'
import { ApiError } from '../http/errors'

// The signed-in user's own application passwords: everyone who can sign in may keep some (as in WordPress), for
// programs that call the REST routes as them with the rights of their role.

export type AppPasswordRow = { uuid: string; name: string; createdAt: string; lastUsedAt: string | null }

export async function listMyAppPasswords(actor: Actor): Promise<AppPasswordRow[]> {
  const rows = await listAppPasswordsForUser(actor.id)
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null }))
}

/** A new application password; `password` is shown this once, in groups of four as WordPress shows it (spaces are ignored). */
export async function createMyAppPassword(actor: Actor, name: string): Promise<{ name: string; password: string }> {
  const created = await createAppPasswordForUser(actor.id, name)
  return { name: created.name, password: created.password.match(/.{1,4}/g)!.join(' ') }
}

export async function revokeMyAppPassword(actor: Actor, uuid: string): Promise<void> {
  if (!(await revokeAppPasswordForUser(actor.id, uuid))) {
    throw new ApiError('rest_application_password_not_found', 'You have no such application password; it may have been revoked already.')
  }
}
