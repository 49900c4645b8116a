import 'server-only'
import { getConfig } from './config'
import { getDialect, readDataVersion } from './db'
import { mediaStore } from './media/store'

export type Health = {
  status: 'ok' | 'starting' | 'unavailable'
  database: { dialect: string; ok: boolean }
  media: { storage: 'disk' | 's3'; ok: boolean }
}

// Set once the server has started (instrumentation.ts): kept on globalThis, as the route's bundle and the one that
// ran the start may hold two copies of this module.
const READY = Symbol.for('places.ready')
const shared = globalThis as typeof globalThis & { [READY]?: boolean }

/** Says the server is ready: the database migrated, the home map's index built. */
export function markReady(): void {
  shared[READY] = true
}

/**
 * For load balancers and monitors: are the database and the photos' store answering, and has the server finished
 * starting (so a balancer sends it no visitor before)? Says nothing a visitor should not know.
 */
export async function checkHealth(): Promise<Health> {
  const answers = (what: string, check: () => Promise<unknown>) =>
    check().then(
      () => true,
      (error: unknown) => {
        console.error(`health check: ${what} did not answer:`, error)
        return false
      },
    )
  // The version is read to prove the database answers; it is not shown (a count of writes, drafts included).
  const [databaseOk, mediaOk] = await Promise.all([answers('the database', readDataVersion), answers('the media storage', () => mediaStore().check())])
  const status = !databaseOk || !mediaOk ? 'unavailable' : shared[READY] ? 'ok' : 'starting'
  return { status, database: { dialect: getDialect(), ok: databaseOk }, media: { storage: getConfig().mediaStorage, ok: mediaOk } }
}
