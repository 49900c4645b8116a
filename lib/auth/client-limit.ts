import 'server-only'
import { getDb } from '../db'

// Failed sign-ins per client address (lib/auth/client-address.ts), apart from any account: one address trying
// ever-new emails sidesteps the per-account count (lib/auth/throttle.ts), but not this. Each address has a budget
// of BURST failures that refills by one every REFILL_MS; with it spent, every sign-in from the address waits for
// the next, the owner's too. Generous on purpose: an office behind one address mistypes now and then, and the
// budget only has to keep one address from making the server hash for it all day (360 an hour at most).
//
// Kept in the database (sign_in_budgets), shared by every instance, as one time per address: when its budget is
// whole again (a "generic cell rate" bucket). Each failure moves it REFILL_MS later; the address may try while it
// is less than BURST failures ahead of now. A row whose time has passed is a whole budget, and is swept.

const BURST = 30
const REFILL_MS = 10_000

/**
 * Spends one failure of the address's budget, before the attempt: 0 when spent, else the milliseconds before the
 * address may try again (and nothing spent). One statement checks and spends, so a flood of attempts at once on any
 * instance cannot overdraw it.
 */
export async function chargeClientSignIn(client: string, now = Date.now()): Promise<number> {
  const rows = await getDb().$queryRaw<unknown[]>`
    INSERT INTO "sign_in_budgets" ("client", "full_at") VALUES (${client}, ${now + REFILL_MS})
    ON CONFLICT ("client") DO UPDATE SET
      "full_at" = CASE WHEN "sign_in_budgets"."full_at" > ${now} THEN "sign_in_budgets"."full_at" ELSE ${now} END + ${REFILL_MS}
    WHERE "sign_in_budgets"."full_at" <= ${now + (BURST - 1) * REFILL_MS}
    RETURNING "client"`
  if (rows.length > 0) return 0
  return Math.max(1, await clientSignInWait(client, now))
}

/** Milliseconds before this address may try again, 0 if it may now. */
export async function clientSignInWait(client: string, now = Date.now()): Promise<number> {
  const row = await getDb().signInBudget.findUnique({ where: { client }, select: { fullAt: true } })
  return row ? Math.max(0, Number(row.fullAt) - (BURST - 1) * REFILL_MS - now) : 0
}

/** Gives the failure back: the attempt succeeded, or was never tried (the server was too busy to hash it). */
export async function refundClientSignIn(client: string): Promise<void> {
  await getDb().$executeRaw`UPDATE "sign_in_budgets" SET "full_at" = "full_at" - ${REFILL_MS} WHERE "client" = ${client}`
}

/** Removes the budgets that are whole again, which need no row; returns how many. */
export async function sweepClientBudgets(now = Date.now()): Promise<number> {
  return (await getDb().signInBudget.deleteMany({ where: { fullAt: { lte: now } } })).count
}

export const CLIENT_SIGN_IN_BURST = BURST
