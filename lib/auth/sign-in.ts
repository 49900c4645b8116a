import 'server-only'
import { getDb } from '../db'
import { ApiError, invalidCredentials } from '../http/errors'
import { verifyPassword } from './passwords'
import { recordFailedSignIn, recordSuccessfulSignIn, signInWait } from './throttle'

export type SignedInUser = { id: number; email: string; name: string; role: string }

/** Checks an email and password for the sign-in page; slowed down after repeated failures (lib/auth/throttle.ts). */
export async function signInWithPassword(email: string, password: string): Promise<SignedInUser> {
  const wait = signInWait(email)
  if (wait > 0) throw new ApiError('too_many_sign_ins', `Too many failed sign-ins. Try again in ${Math.ceil(wait / 1000)} seconds.`, 429)
  const user = await getDb().user.findUnique({
    where: { email: email.toLowerCase() },
    select: { id: true, email: true, name: true, role: true, passwordHash: true },
  })
  // A missing user costs a hash too, so the answer's timing does not tell which emails exist.
  const valid = await verifyPassword(password, user?.passwordHash ?? 'scrypt$32768$8$3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
  if (!user || !user.passwordHash || !valid) {
    recordFailedSignIn(email)
    throw invalidCredentials()
  }
  recordSuccessfulSignIn(email)
  return { id: user.id, email: user.email, name: user.name, role: user.role }
}
