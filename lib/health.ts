import 'server-only'
import { newestBuild, ownBuildId } from './builds'
import { getConfig } from './config'
import { getDialect, readDataVersion } from './db'
import { mediaStore } from './media/store'

export type Health = {
  status: 'ok' | 'starting' | 'unavailable'
  database: { dialect: string; ok: boolean }
  media: { storage: 'disk' | 's3'; ok: boolean }
  /** this server's build; `newest: false` when another server started since with another build (lib/builds.ts) */
  build: { id: string | null; newest: boolean }
}

// Set once the server has started (instrumentation.ts): kept on globalThis, as the route's bundle and the one that
// ran the start may hold two copies of this module.
const READY = Symbol.for('places.ready')
const WARNED = Symbol.for('places.build-warned')
const shared = globalThis as typeof globalThis & { [READY]?: boolean; [WARNED]?: boolean }

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
  const [databaseOk, mediaOk, newest] = await Promise.all([
    answers('the database', readDataVersion),
    answers('the media storage', () => mediaStore().check()),
    newestBuild().catch(() => null),
  ])
  const status = !databaseOk || !mediaOk ? 'unavailable' : shared[READY] ? 'ok' : 'starting'
  return {
    status,
    database: { dialect: getDialect(), ok: databaseOk },
    media: { storage: getConfig().mediaStorage, ok: mediaOk },
    build: buildHealth(ownBuildId(), newest),
  }
}

/** Still serving, but saves from the other build's pages fail here and the other way round: said once in the log. */
function buildHealth(id: string | null, newest: { buildId: string; startedAt: Date } | null): Health['build'] {
  const isNewest = !id || !newest || newest.buildId === id
  if (!isNewest && !shared[WARNED]) {
    shared[WARNED] = true
    console.warn(
      `Places: a server started at ${newest.startedAt.toISOString()} with build ${newest.buildId}; this one runs ${id}. ` +
        'Admin saves fail between servers of different builds: run one build on every machine (README, Deployment).',
    )
  }
  return { id, newest: isNewest }
}
