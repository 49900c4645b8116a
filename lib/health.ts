import 'server-only'
import { getDialect, readDataVersion } from './db'

export type Health = { status: 'ok' | 'starting' | 'unavailable'; database: { dialect: string; ok: boolean } }

// Set once the server has started (instrumentation.ts): kept on globalThis, as the route's bundle and the one that
// ran the start may hold two copies of this module.
const READY = Symbol.for('places.ready')
const shared = globalThis as typeof globalThis & { [READY]?: boolean }

/** Says the server is ready: the database migrated, the home map's index built. */
export function markReady(): void {
  shared[READY] = true
}

/**
 * For load balancers and monitors: is the database answering, and has the server finished starting (so a balancer
 * sends it no visitor before)? Says nothing a visitor should not know.
 */
export async function checkHealth(): Promise<Health> {
  const dialect = getDialect()
  try {
    // The version is read to prove the database answers; it is not shown (a count of writes, drafts included).
    await readDataVersion()
    return { status: shared[READY] ? 'ok' : 'starting', database: { dialect, ok: true } }
  } catch (error) {
    console.error('health check: the database did not answer:', error)
    return { status: 'unavailable', database: { dialect, ok: false } }
  }
}
