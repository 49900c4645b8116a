import 'server-only'
import { getDb } from '../db'
import { ApiError, invalidCredentials, tryAgainLater } from '../http/errors'
import { runPeriodically } from '../jobs'
import { clientKey } from './client-address'
import { chargeClientSignIn, refundClientSignIn, sweepClientBudgets } from './client-limit'
import { issueDeviceCookie, readDeviceCookie } from './device-cookie'
import { isWithinCredentialLimits } from './limits'
import { verifyPassword } from './passwords'
import { accountKey, deviceKey, forgetFailedSignIn, recordFailedSignIn, recordSuccessfulSignIn, sweepSignInFailures } from './throttle'

/** The user signed in, with the session version read with the password hash that was checked (sessions.ts). */
export type SignedInUser = { id: number; email: string; name: string; role: string; sessionVersion: string }

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
 * sizes (lib/auth/limits.ts); the client address's budget of failures (lib/auth/client-limit.ts), which a browser
 * that brings a device cookie for the account skips (strangers at its address must not lock its owner out); the
 * account's count of failures, or this device's (lib/auth/throttle.ts), counted before the hash so that attempts
 * at once cannot all pass one check; room for a hash (lib/auth/hash-slots.ts), per device for a known one. On
 * success the device's cookie, to set in the answer.
 */
export async function signInWithPassword(attempt: SignInAttempt): Promise<{ user: SignedInUser; deviceCookie: string }> {
  const { email, password } = attempt
  if (!isWithinCredentialLimits(email, password)) throw invalidCredentials()
  const account = accountKey(email)
  const device = readDeviceCookie(attempt.deviceCookie, account, attempt.deviceCookieKey)
  const counter = device === null ? account : deviceKey(account, device)
  const client = device === null ? clientKey(attempt.clientAddress) : null

  // Counted as failed until the hash says otherwise (each count checks its wait in the same statement); given back
  // when it was never tried.
  if (client !== null) {
    const wait = await chargeClientSignIn(client)
    if (wait > 0) throw tooManyFailures(wait)
  }
  const counted = await recordFailedSignIn(counter)
  if ('wait' in counted) {
    if (client !== null) await refundClientSignIn(client)
    throw tooManyFailures(counted.wait)
  }
  const giveBack = () => Promise.all([client !== null && refundClientSignIn(client), forgetFailedSignIn(counted.failure)])
  let valid = false
  let user: (SignedInUser & { passwordHash: string | null }) | null = null
  try {
    user = await getDb().user.findUnique({
      where: { email: email.toLowerCase() },
      select: { id: true, email: true, name: true, role: true, passwordHash: true, sessionVersion: true },
    })
    valid = await verifyPassword(password, user?.passwordHash ?? NO_USER_HASH, { client: client ?? `device:${device}`, priority: device !== null })
  } catch (error) {
    await giveBack().catch(() => {}) // never tried: the server was too busy, or the database failed (the error said)
    throw error
  }
  if (!user || !user.passwordHash || !valid) throw invalidCredentials()
  await Promise.all([client !== null && refundClientSignIn(client), recordSuccessfulSignIn(counter)])
  return {
    user: { id: user.id, email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion },
    deviceCookie: issueDeviceCookie(account, attempt.deviceCookieKey, device),
  }
}

/** Removes, every hour on one instance (lib/jobs.ts), the sign-in counts that no longer hold anyone back. */
export function startSignInSweeper(): void {
  runPeriodically('sweep-sign-in-limits', 3_600_000, async () => {
    await Promise.all([sweepSignInFailures(), sweepClientBudgets()])
    return null
  })
}

function tooManyFailures(waitMs: number): ApiError {
  const seconds = Math.ceil(waitMs / 1000)
  return tryAgainLater('too_many_sign_ins', 'Too many failed sign-ins.', seconds)
}
