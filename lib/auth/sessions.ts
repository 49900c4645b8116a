import 'server-only'
import { randomUUID } from 'node:crypto'
import { getDb } from '../db'

// A session (next-auth's JWT, lib/auth/config.ts) names its user by id, email and session version, and holds only
// while all three are the user's now: checked on every request. Renewing the version ends every session of the user
// at once; so does deleting the user, and a database made anew (its users' versions are new random values, so an old
// token's id naming a new user does not let it in). Application passwords are apart, as in WordPress: they hold
// until revoked.

/** What a session's token says of its user. */
export type SessionClaims = { uid?: unknown; email?: unknown; sv?: unknown }

/** The signed-in user as every request sees them: read from the database now, not at sign-in. */
export type SessionUser = { id: number; email: string; name: string; role: string; sessionVersion: string }

/** The user a session's token names, if the token still holds; null when it was ended. */
export async function findSessionUser(claims: SessionClaims): Promise<SessionUser | null> {
  // An empty version is a row written outside Places (the column's default): no session can be sure of it.
  if (typeof claims.uid !== 'number' || typeof claims.email !== 'string' || typeof claims.sv !== 'string' || claims.sv === '') return null
  const user = await getDb().user.findUnique({
    where: { id: claims.uid },
    select: { id: true, email: true, name: true, role: true, sessionVersion: true },
  })
  return user && user.email === claims.email && user.sessionVersion === claims.sv ? user : null
}

/** The change to a user's row that ends every session they have. */
export function sessionsEnded(): { sessionVersion: string } {
  return { sessionVersion: randomUUID() }
}
