import 'server-only'
import { LRUCache } from 'lru-cache'

// Failed sign-ins per client address (lib/auth/client-address.ts), apart from any account: one address trying
// ever-new emails sidesteps the per-account count (lib/auth/throttle.ts), but not this. Each address has a budget
// of BURST failures that refills by one every REFILL_MS; with it spent, every sign-in from the address waits for
// the next, the owner's too. Generous on purpose: an office behind one address mistypes now and then, and the
// budget only has to keep one address from making the server hash for it all day (360 an hour at most).

const BURST = 30
const REFILL_MS = 10_000
const MAX_CLIENTS = 100_000

type Budget = { tokens: number; at: number }
// An address unseen for the time a whole budget takes to refill needs no record: it is full again.
const budgets = new LRUCache<string, Budget>({ max: MAX_CLIENTS, ttl: BURST * REFILL_MS })

function current(client: string, now: number): Budget {
  const budget = budgets.get(client)
  if (!budget) return { tokens: BURST, at: now }
  const refilled = Math.floor((now - budget.at) / REFILL_MS)
  return refilled > 0
    ? { tokens: Math.min(BURST, budget.tokens + refilled), at: budget.tokens + refilled >= BURST ? now : budget.at + refilled * REFILL_MS }
    : budget
}

/** Milliseconds before this address may try again, 0 if it may now. */
export function clientSignInWait(client: string, now = Date.now()): number {
  const budget = current(client, now)
  return budget.tokens > 0 ? 0 : budget.at + REFILL_MS - now
}

/** Spends one failure of the address's budget, before the attempt: a flood of attempts at once cannot overdraw it. */
export function chargeClientSignIn(client: string, now = Date.now()): void {
  const budget = current(client, now)
  budgets.set(client, { tokens: budget.tokens - 1, at: budget.at })
}

/** Gives the failure back: the attempt succeeded, or was never tried (the server was too busy to hash it). */
export function refundClientSignIn(client: string, now = Date.now()): void {
  const budget = current(client, now)
  budgets.set(client, { tokens: Math.min(BURST, budget.tokens + 1), at: budget.at })
}

export const CLIENT_SIGN_IN_BURST = BURST
