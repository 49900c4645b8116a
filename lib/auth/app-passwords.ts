import 'server-only'
import { createHash, randomInt, randomUUID } from 'node:crypto'
import { getDb } from '../db'
import { ApiError } from '../http/errors'
import { getUserIdByEmailOrThrow } from '../users'

// As WordPress's Application Passwords: 24 characters from A–Z a–z 0–9 (about 143 bits), shown once.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const LENGTH = 24

export type AppPasswordInfo = { uuid: string; name: string; createdAt: Date; lastUsedAt: Date | null }

/** The stored form. Spaces are dropped first, as WordPress does: its UI shows the secret in groups of four. */
export function hashAppPassword(secret: string): string {
  return createHash('sha256').update(secret.replace(/\s+/g, '')).digest('hex')
}

export async function createAppPassword(email: string, name: string): Promise<AppPasswordInfo & { password: string }> {
  return createAppPasswordForUser(await getUserIdByEmailOrThrow(email), name)
}

export async function listAppPasswords(email: string): Promise<AppPasswordInfo[]> {
  return listAppPasswordsForUser(await getUserIdByEmailOrThrow(email))
}

export async function revokeAppPassword(email: string, uuid: string): Promise<void> {
  const revoked = await revokeAppPasswordForUser(await getUserIdByEmailOrThrow(email), uuid)
  if (!revoked) throw new ApiError('rest_application_password_not_found', `User ${email} has no application password ${uuid}.`)
}

/** A new application password for the user with this id; the secret is returned this once and never stored. */
export async function createAppPasswordForUser(userId: number, name: string): Promise<AppPasswordInfo & { password: string }> {
  const label = name.trim()
  if (!label || label.length > 200) throw new ApiError('rest_invalid_param', 'name: must be 1 to 200 characters')
  const password = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')
  const row = await getDb().appPassword.create({
    data: { uuid: randomUUID(), userId, name: label, secretHash: hashAppPassword(password) },
    select: { uuid: true, name: true, createdAt: true, lastUsedAt: true },
  })
  return { ...row, password }
}

export async function listAppPasswordsForUser(userId: number): Promise<AppPasswordInfo[]> {
  return getDb().appPassword.findMany({
    where: { userId },
    orderBy: { id: 'asc' },
    select: { uuid: true, name: true, createdAt: true, lastUsedAt: true },
  })
}

/** Revokes one of the user's application passwords; false when the user has none by that uuid. */
export async function revokeAppPasswordForUser(userId: number, uuid: string): Promise<boolean> {
  const { count } = await getDb().appPassword.deleteMany({ where: { userId, uuid } })
  return count > 0
}
