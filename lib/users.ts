import 'server-only'
import { z } from 'zod'
import { ROLES } from './auth/capabilities'
import { hashPassword } from './auth/passwords'
import { sessionsEnded } from './auth/sessions'
import { getDb, type Tx } from './db'
import { ApiError } from './http/errors'

export const newUserSchema = z.object({
  email: z.email().transform((email) => email.toLowerCase()),
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }),
  name: z.string().trim().max(200).default(''),
})

export type NewUser = z.input<typeof newUserSchema>

export function validationError(error: z.ZodError): ApiError {
  const problems = error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`)
  return new ApiError('rest_invalid_param', problems.join('; '))
}

/** Adds a user; returns the new id. */
export async function createUser(input: NewUser): Promise<number> {
  const parsed = newUserSchema.safeParse(input)
  if (!parsed.success) throw validationError(parsed.error)
  const { email, password, role, name } = parsed.data
  const db = getDb()
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new ApiError('existing_user_email', `A user with the email ${email} already exists.`)
  }
  const user = await db.user.create({ data: { email, role, name, passwordHash: await hashPassword(password) }, select: { id: true } })
  return user.id
}

export async function getUserIdByEmailOrThrow(email: string): Promise<number> {
  const user = await getDb().user.findUnique({ where: { email: email.toLowerCase() }, select: { id: true } })
  if (!user) throw new ApiError('rest_user_invalid_email', `No user has the email ${email}.`)
  return user.id
}

export async function setUserPassword(email: string, password: string): Promise<void> {
  const parsed = newUserSchema.pick({ password: true }).safeParse({ password })
  if (!parsed.success) throw validationError(parsed.error)
  const userId = await getUserIdByEmailOrThrow(email)
  // A new password ends every session the old one opened (lib/auth/sessions.ts).
  await getDb().user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(parsed.data.password), ...sessionsEnded() } })
}

/** "Sign out everywhere": ends every session of the user with this email (application passwords stay). */
export async function signOutEverywhere(email: string): Promise<void> {
  await getDb().user.update({ where: { id: await getUserIdByEmailOrThrow(email) }, data: sessionsEnded() })
}

/** The author of imported posts that name none: the first administrator (lowest id), as WordPress's importer does. */
export async function firstAdministratorId(tx: Tx): Promise<number | undefined> {
  return (await tx.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' }, select: { id: true } }))?.id
}
