import 'server-only'
import { createHash } from 'node:crypto'
import { getDb } from '../db'
import { Prisma } from '../generated/sqlite/client'

// Failed sign-ins, counted per account, or per account and device for a browser that signed in to that account
// before (lib/auth/device-cookie.ts). After a few failures each further attempt must wait, twice as long each time
// up to a quarter of an hour; a success clears the count. Strangers share the account's count, so guessing is
// slowed to a handful an hour; the owner's browser keeps a count of its own and is not locked out by them.
//
// Kept in the database (sign_in_failures), so that instances behind one balancer count the same failures and a
// restart forgives none. A count is kept under a hash of the lower-cased email, never the email itself, so a key is
// 43 characters whatever was typed; a count an hour old is forgotten, and sweepSignInFailures removes its row.

const FREE_FAILURES = 3
const MAX_WAIT_MS = 15 * 60_000
const FORGET_AFTER_MS = 60 * 60_000

/** What an account's failures are counted under: a hash of its lower-cased email. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.toLowerCase()).digest('base64url')
}

/** What failures from one signed-in-before device are counted under, apart from the account's strangers. */
export function deviceKey(account: string, device: string): string {
  return `${account}.${device}`
}

/** How long an attempt must wait after `failures` failures in a row. */
function waitAfter(failures: number): number {
  return failures <= FREE_FAILURES ? 0 : Math.min(1000 * 2 ** (failures - FREE_FAILURES), MAX_WAIT_MS)
}

// waitAfter of a row's count, as SQL (the same waits on both databases, which share no power function).
const WAIT_SQL = Prisma.raw(
  `CASE WHEN "sign_in_failures"."failures" <= ${FREE_FAILURES} THEN 0 ${Array.from(
    { length: Math.ceil(Math.log2(MAX_WAIT_MS / 1000)) },
    (_, i) => FREE_FAILURES + 1 + i,
  )
    .map((failures) => `WHEN "sign_in_failures"."failures" = ${failures} THEN ${waitAfter(failures)}`)
    .join(' ')} ELSE ${MAX_WAIT_MS} END`,
)

/** A failure counted before its attempt was tried, to forget if it never is. */
export type CountedFailure = { key: string; failures: number; at: number }

/**
 * Counts an attempt under `key` as failed, before its password is checked, unless `key` must still wait: then how
 * long, and nothing is counted. One statement checks and counts, so attempts at once on any instance cannot all pass
 * one check.
 */
export async function recordFailedSignIn(key: string, now = Date.now()): Promise<{ failure: CountedFailure } | { wait: number }> {
  const rows = await getDb().$queryRaw<{ failures: number }[]>`
    INSERT INTO "sign_in_failures" ("key", "failures", "at", "previous_at") VALUES (${key}, 1, ${now}, 0)
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN "sign_in_failures"."at" <= ${now - FORGET_AFTER_MS} THEN 1 ELSE "sign_in_failures"."failures" + 1 END,
      "previous_at" = "sign_in_failures"."at",
      "at" = ${now}
    WHERE "sign_in_failures"."at" + ${WAIT_SQL} <= ${now}
    RETURNING "failures"`
  const [counted] = rows
  if (counted) return { failure: { key, failures: Number(counted.failures), at: now } }
  return { wait: Math.max(1, await signInWait(key, now)) }
}

/** Milliseconds the caller must still wait before another attempt, 0 if none. */
export async function signInWait(key: string, now = Date.now()): Promise<number> {
  const row = await getDb().signInFailure.findUnique({ where: { key }, select: { failures: true, at: true } })
  if (!row || Number(row.at) <= now - FORGET_AFTER_MS) return 0
  return Math.max(0, Number(row.at) + waitAfter(row.failures) - now)
}

/**
 * Takes back a failure counted for an attempt that was never tried, if no other was counted since; a count it began
 * goes with it, so that attempts refused as too many at once leave no rows behind, whatever emails they name.
 */
export async function forgetFailedSignIn({ key, failures, at }: CountedFailure): Promise<void> {
  const db = getDb()
  if (failures === 1) await db.signInFailure.deleteMany({ where: { key, failures, at } })
  else
    await db.$executeRaw`
      UPDATE "sign_in_failures" SET "failures" = "failures" - 1, "at" = "previous_at"
      WHERE "key" = ${key} AND "failures" = ${failures} AND "at" = ${at}`
}

export async function recordSuccessfulSignIn(key: string): Promise<void> {
  await getDb().signInFailure.deleteMany({ where: { key } })
}

/** Removes the counts an hour old, which no longer count; returns how many. */
export async function sweepSignInFailures(now = Date.now()): Promise<number> {
  return (await getDb().signInFailure.deleteMany({ where: { at: { lte: now - FORGET_AFTER_MS } } })).count
}
