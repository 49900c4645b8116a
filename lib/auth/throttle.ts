import 'server-only'
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'

// Failed sign-ins, counted per account, or per account and device for a browser that signed in to that account
// before (lib/auth/device-cookie.ts). After a few failures each further attempt must wait, twice as long each time
// up to a quarter of an hour; a success clears the count. Strangers share the account's count, so guessing is
// slowed to a handful an hour; the owner's browser keeps a count of its own and is not locked out by them.
// Kept in memory: each app instance counts its own.
//
// A count is kept under a hash of the lower-cased email, never the email itself: a key is 43 characters whatever
// was typed, and the cache holds at most MAX_RECORDS of them (the oldest go first), so a flood of attempts with
// huge or ever-new emails cannot grow the heap.

const FREE_FAILURES = 3
const MAX_WAIT_MS = 15 * 60_000
const FORGET_AFTER_MS = 60 * 60_000
const MAX_RECORDS = 100_000

type FailureRecord = { failures: number; blockedUntil: number; previous?: FailureRecord }
const records = new LRUCache<string, FailureRecord>({ max: MAX_RECORDS, ttl: FORGET_AFTER_MS })

/** What an account's failures are counted under: a hash of its lower-cased email. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.toLowerCase()).digest('base64url')
}

/** What failures from one signed-in-before device are counted under, apart from the account's strangers. */
export function deviceKey(account: string, device: string): string {
  return `${account}.${device}`
}

/** Milliseconds the caller must still wait before another attempt, 0 if none. */
export function signInWait(key: string, now = Date.now()): number {
  return Math.max(0, (records.get(key)?.blockedUntil ?? 0) - now)
}

/** Counts a failure; returns the record it made, for forgetFailedSignIn. */
export function recordFailedSignIn(key: string, now = Date.now()): FailureRecord {
  // The cache forgets a record an hour after its last failure (each set starts its time again).
  const previous = records.get(key)
  const failures = (previous?.failures ?? 0) + 1
  const wait = failures > FREE_FAILURES ? Math.min(1000 * 2 ** (failures - FREE_FAILURES), MAX_WAIT_MS) : 0
  // The record before, without its own before: forgetting goes back one step only.
  const record = { failures, blockedUntil: now + wait, previous: previous && { failures: previous.failures, blockedUntil: previous.blockedUntil } }
  records.set(key, record)
  return record
}

/** Takes back a failure counted for an attempt that was never tried, if no other was counted since. */
export function forgetFailedSignIn(key: string, record: FailureRecord): void {
  if (records.get(key) !== record) return
  if (record.previous) records.set(key, record.previous)
  else records.delete(key)
}

export function recordSuccessfulSignIn(key: string): void {
  records.delete(key)
}

/** How many counts are kept, and what they are kept under (for tests). */
export function throttleRecords(): { size: number; keys: string[] } {
  return { size: records.size, keys: [...records.keys()] }
}
