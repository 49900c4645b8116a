import 'server-only'
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// OWASP's "device cookie" (Authentication Cheat Sheet, account lockout): a browser that signed in to an account
// with its password gets a signed cookie naming the account (by lib/auth/throttle.ts's hash of its email, not the
// email) and a random id for the device. Later attempts that carry it for that account are counted per device, not
// with the strangers who share the account's count: someone guessing a password can lock the account for
// strangers, never for its owner's browser. Only a successful sign-in makes one, so a guesser cannot.

export const DEVICE_COOKIE = 'places-device'
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 180 * 24 * 60 * 60

/** The HMAC key of device cookies, derived from the sessions' secret so that it is never used twice for one job. */
export function deviceCookieKey(authSecret: string): Buffer {
  return createHmac('sha256', authSecret).update('places device cookie v1').digest()
}

function sign(payload: string, key: Buffer): string {
  return createHmac('sha256', key).update(payload).digest('base64url')
}

/** A new cookie value for this account: the device id of `device` if given (its count continues), else a new one. */
export function issueDeviceCookie(account: string, key: Buffer, device: string | null = null, now = Date.now()): string {
  const payload = [account, device ?? randomBytes(12).toString('base64url'), Math.floor(now / 1000)].join('.')
  return `${payload}.${sign(payload, key)}`
}

/** The device id of a cookie value signed by `key` for this account and not expired; null otherwise. */
export function readDeviceCookie(value: string | undefined, account: string, key: Buffer, now = Date.now()): string | null {
  const parts = value?.split('.')
  if (!value || parts?.length !== 4) return null
  const [named, device, issued, signature] = parts as [string, string, string, string]
  const expected = Buffer.from(sign(`${named}.${device}.${issued}`, key))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  const age = now / 1000 - Number(issued)
  if (named !== account || !(age >= 0 && age <= DEVICE_COOKIE_MAX_AGE_SECONDS)) return null
  return device
}
