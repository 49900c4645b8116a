import 'server-only'

// What a server does once when it starts (instrumentation.ts calls it in the Node.js runtime only: Next also compiles
// that file for the Edge runtime, where none of this could run): every request's client address is checked from then
// on, the database is created (SQLite: under ./data/) and brought to the current schema, and what a crash may have
// left of uploads is cleared away.
export async function startServer(): Promise<void> {
  // First of all: from here on, X-Forwarded-For is believed only from TRUSTED_PROXIES (lib/auth/client-address.ts).
  const { getConfig } = await import('./lib/config')
  const { installClientAddressFilter } = await import('./lib/auth/client-address')
  installClientAddressFilter(getConfig().trustedProxies)
  // Instances on several machines must sign sessions and ETags alike: on PostgreSQL, no secret made per machine.
  const { sharedSecretMissing } = await import('./lib/auth/secret')
  const missing = sharedSecretMissing()
  if (missing) {
    console.error(`Places: ${missing}`)
    process.exit(1)
  }
  // An answer that leaves the request's body unread closes the connection, rather than keep one it will not read.
  const { installCloseAfterUnreadBody } = await import('./lib/http/unread-body')
  installCloseAfterUnreadBody()
  // The public answers' Content-Encoding reaches the client (lib/http/content-encoding.ts).
  const { installCodingHeader } = await import('./lib/http/content-encoding')
  installCodingHeader()
  const { migrate } = await import('./lib/migrate')
  const applied = await migrate()
  if (applied.length > 0) console.log(`Places: database migrated (${applied.join(', ')})`)
  // This server's build, now the newest started: servers of an older one say so (lib/builds.ts).
  const { ownBuildId, recordBuild } = await import('./lib/builds')
  const buildId = ownBuildId()
  if (buildId) await recordBuild(buildId).catch((error) => console.error('Places: this server could not record its build:', error))
  const { removeStaleIncoming } = await import('./lib/media/storage')
  const removed = await removeStaleIncoming(getConfig().incomingStaleSeconds)
  if (removed > 0) console.log(`Places: removed ${removed} unfinished uploads`)
  // Posts written by hand or by an older version get their folded search text (lib/places/search.ts); not awaited:
  // after an upgrade a large site has every post to fill, and requests are served meanwhile (such posts are found
  // by the admin's search once filled).
  const { fillSearchColumns } = await import('./lib/places/search')
  fillSearchColumns()
    .then((filled) => filled > 0 && console.log(`Places: made ${filled} posts searchable`))
    .catch((error) => console.error('Places: the search text could not be filled:', error))
  // Scheduled posts go live at their time, and those due while the server was down now (lib/admin/scheduler.ts).
  const { startScheduler } = await import('./lib/admin/scheduler')
  startScheduler()
  // Hourly, on one instance of those sharing the database (lib/jobs.ts): posts in the Trash longer than
  // EMPTY_TRASH_DAYS are deleted for good, as WordPress does (lib/admin/trash.ts), and old sign-in counts removed.
  const { startTrashEmptier } = await import('./lib/admin/trash')
  startTrashEmptier()
  const { startSignInSweeper } = await import('./lib/auth/sign-in')
  startSignInSweeper()
  // The home map's index of places, built now rather than on the first visit (not awaited: requests are served);
  // /healthz says "starting" until it is (lib/health.ts).
  const { warmPlaceIndex } = await import('./lib/places/public')
  const { markReady } = await import('./lib/health')
  warmPlaceIndex({ postType: 'post', categoryId: null })
    .catch((error) => console.error('Places: the map index could not be built:', error))
    .finally(markReady)
}
