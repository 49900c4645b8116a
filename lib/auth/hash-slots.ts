import 'server-only'
import { ApiError, tryAgainLater } from '../http/errors'

// Password hashes run in libuv's thread pool (4 threads), which file reads, uploads and DNS share: scrypt at
// OWASP's cost takes 32 MiB and ~100-300 ms a hash, so a flood of sign-ins would hold every thread. At most
// RUNNING hashes run at once; a few more wait their turn, and beyond that an attempt is answered 429 with
// Retry-After at once. One client address may hold only PER_CLIENT of those places (running or waiting), so one
// client cannot fill the queue for everyone else. A browser that signed in to the account before (a valid device
// cookie, lib/auth/device-cookie.ts) waits in a lane of its own that is served first: a flood from strangers
// slows the owner, it does not shut them out.

export type HashSlotLimits = { running: number; waiting: number; perClient: number }

type Waiter = () => void

export class HashSlots {
  private active = 0
  private readonly lanes: { priority: Waiter[]; normal: Waiter[] } = { priority: [], normal: [] }
  private readonly perClient = new Map<string, number>()
  /** a running mean of how long a hash takes, for Retry-After */
  private meanMs = 200

  constructor(readonly limits: HashSlotLimits) {}

  /**
   * Runs `work` (one hash) in a slot. An attempt from a client (a sign-in) is refused at once with a 429 ApiError
   * when there is no room for it; without a client (an operator or an administrator setting a password) it always
   * waits its turn.
   */
  async run<T>(work: () => Promise<T>, { client = null, priority = false }: { client?: string | null; priority?: boolean } = {}): Promise<T> {
    const lane = priority ? this.lanes.priority : this.lanes.normal
    if (client !== null) {
      const held = this.perClient.get(client) ?? 0
      if (held >= this.limits.perClient || (this.active >= this.limits.running && lane.length >= this.limits.waiting)) throw this.busy()
      this.perClient.set(client, held + 1)
    }
    try {
      if (this.active < this.limits.running) this.active++
      else await new Promise<void>((resolve) => lane.push(resolve)) // the slot is handed over by release()
      const start = performance.now()
      try {
        return await work()
      } finally {
        this.meanMs += (performance.now() - start - this.meanMs) / 8
        this.release()
      }
    } finally {
      if (client !== null) {
        const left = (this.perClient.get(client) ?? 1) - 1
        if (left > 0) this.perClient.set(client, left)
        else this.perClient.delete(client)
      }
    }
  }

  /** Hashes running and waiting now (for tests). */
  load(): { running: number; waiting: number; clients: number } {
    return { running: this.active, waiting: this.lanes.priority.length + this.lanes.normal.length, clients: this.perClient.size }
  }

  private release(): void {
    const next = this.lanes.priority.shift() ?? this.lanes.normal.shift()
    if (next)
      next() // the slot passes to the next waiter: `active` stays the same
    else this.active--
  }

  private busy(): ApiError {
    const queued = this.active + this.lanes.priority.length + this.lanes.normal.length
    const seconds = Math.max(1, Math.ceil((queued * this.meanMs) / this.limits.running / 1000))
    return tryAgainLater('too_many_sign_ins', 'Too many sign-ins at once.', seconds)
  }
}

// One set of slots for the whole process: route handlers and server actions are bundled apart, and each bundle
// would otherwise have its own.
const SHARED = Symbol.for('places.hash-slots')
const shared = globalThis as typeof globalThis & { [SHARED]?: HashSlots }

export function getHashSlots(): HashSlots {
  return (shared[SHARED] ??= new HashSlots({ running: 2, waiting: 16, perClient: 4 }))
}
