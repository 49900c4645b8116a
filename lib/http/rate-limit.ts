import { LRUCache } from 'lru-cache'

/**
 * A budget of `limit` uses per `windowMs` for each key (a token bucket refilled evenly), kept in this process's
 * memory for at most `maxKeys` keys: a key unseen for a window is full again, so forgetting it loses nothing.
 */
export class RateLimit {
  private readonly buckets: LRUCache<string, { tokens: number; at: number }>

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    maxKeys = 10_000,
  ) {
    this.buckets = new LRUCache({ max: maxKeys, ttl: windowMs })
  }

  /** Spends one use of `key`'s budget and answers 0; with none left, spends nothing and answers the milliseconds to wait. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key)
    const tokens = bucket ? Math.min(this.limit, bucket.tokens + ((now - bucket.at) * this.limit) / this.windowMs) : this.limit
    if (tokens < 1) return Math.ceil(((1 - tokens) * this.windowMs) / this.limit)
    this.buckets.set(key, { tokens: tokens - 1, at: now })
    return 0
  }
}
