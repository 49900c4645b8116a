import 'server-only'

// Failed sign-ins, counted per account. After a few failures each further attempt must wait, twice as long each
// time up to a quarter of an hour; a success clears the count. Not per client address: behind no trusted proxy a
// client names its own (X-Forwarded-For), and behind a shared one it would lock out everyone there. Kept in memory:
// each app instance counts its own, which still bounds guessing to a handful an hour per account and instance.

const FREE_FAILURES = 3
const MAX_WAIT_MS = 15 * 60_000
const FORGET_AFTER_MS = 60 * 60_000

type Record = { failures: number; blockedUntil: number; lastFailure: number }
const records = new Map<string, Record>()

/** Milliseconds the caller must still wait before another attempt, 0 if none. */
export function signInWait(email: string, now = Date.now()): number {
  return Math.max(0, (records.get(email.toLowerCase())?.blockedUntil ?? 0) - now)
}

export function recordFailedSignIn(email: string, now = Date.now()): void {
  const key = email.toLowerCase()
  const previous = records.get(key)
  const failures = previous && now - previous.lastFailure < FORGET_AFTER_MS ? previous.failures + 1 : 1
  const wait = failures > FREE_FAILURES ? Math.min(1000 * 2 ** (failures - FREE_FAILURES), MAX_WAIT_MS) : 0
  records.set(key, { failures, blockedUntil: now + wait, lastFailure: now })
  if (records.size > 100_000) for (const [key, record] of records) if (now - record.lastFailure > FORGET_AFTER_MS) records.delete(key)
}

export function recordSuccessfulSignIn(email: string): void {
  records.delete(email.toLowerCase())
}
