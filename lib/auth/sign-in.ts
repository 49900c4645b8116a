import 'server-only'
import { getDb } from '../db'
import { ApiError, invalidCredentials } from '../http/errors'
import { clientKey } from './client-address'
import { chargeClientSignIn, clientSignInWait, refundClientSignIn } from './client-limit'
import { issueDeviceCookie, readDeviceCookie } from './device-cookie'
import { isWithinCredentialLimits } from './limits'
import { verifyPassword } from './passwords'
import { accountKey, deviceKey, recordFailedSignIn, recordSuccessfulSignIn, signInWait } from './throttle'

export type SignedInUser = { id: number; email: string; name: string; role: string }

export type SignInAttempt = {
  email: string
  password: string
  /** the client's address (lib/auth/client-address.ts) */
  clientAddress: string
  /** the device cookie the browser sent, if any (lib/auth/device-cookie.ts) */
  deviceCookie?: string
  /** the key that signs device cookies */
  deviceCookieKey: Buffer
}

// A missing user costs a hash too, so the answer's timing does not tell which emails exist.
const NO_USER_HASH = 'scrypt$32768$8$3$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'

/**
 * Checks an email and password for the sign-in page. In this order, each before any work the next costs: the
 * sizes (lib/auth/limits.ts); the client address's budget of failures (lib/auth/client-limit.ts); the account's
 * count of failures, or this device's if it brings a device cookie for the account (lib/auth/throttle.ts); room
 * for a hash (lib/auth/hash-slots.ts). On success the device's cookie, to set in the answer.
 */
export async function signInWithPassword(attempt: SignInAttempt): Promise<{ user: SignedInUser; deviceCookie: string }> {
  const { email, password } = attempt
  if (!isWithinCredentialLimits(email, password)) throw invalidCredentials()
  const account = accountKey(email)
  const device = readDeviceCookie(attempt.deviceCookie, account, attempt.deviceCookieKey)
  const counter = device === null ? account : deviceKey(account, device)
  const client = clientKey(attempt.clientAddress)
  const wait = Math.max(clientSignInWait(client), signInWait(counter))
  if (wait > 0) throw tooManyFailures(wait)

  chargeClientSignIn(client)
  let valid = false
  let user: (SignedInUser & { passwordHash: string | null }) | null = null
  try {
    user = await getDb().user.findUnique({
      where: { email: email.toLowerCase() },
      select: { id: true, email: true, name: true, role: true, passwordHash: true },
    })
    valid = await verifyPassword(password, user?.passwordHash ?? NO_USER_HASH, { client, priority: device !== null })
  } catch (error) {
    refundClientSignIn(client) // never tried: the server was too busy, or the database failed
    throw error
  }
  if (!user || !user.passwordHash || !valid) {
    recordFailedSignIn(counter)
    throw invalidCredentials()
  }
  refundClientSignIn(client)
  recordSuccessfulSignIn(counter)
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role },
    deviceCookie: issueDeviceCookie(account, attempt.deviceCookieKey, device),
  }
}

function tooManyFailures(waitMs: number): ApiError {
  const seconds = Math.ceil(waitMs / 1000)
  return new ApiError('too_many_sign_ins', `Too many failed sign-ins. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, 429, { retryAfter: seconds })
}
