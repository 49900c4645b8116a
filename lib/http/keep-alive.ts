import 'server-only'
import type { Server } from 'node:http'
import { onEveryRequest } from './server-requests'

// How long an idle keep-alive connection stays open: longer than clients and proxies that pool connections keep
// theirs (nginx's upstream keepalive_timeout is 60 s), so that the server never closes one at the moment a client
// sends a request on it; the client would see ECONNRESET (behind nginx, a 502). Node's own default is 5 s, and a
// test client that paused about that long between two requests met exactly that. Next.js takes it only as a flag of
// `next start`; set here, it holds however the server is started.
export const KEEP_ALIVE_MS = 65_000

const INSTALLED = Symbol.for('places.keep-alive')
const shared = globalThis as typeof globalThis & { [INSTALLED]?: true }

/** Sets the keep-alive time of every HTTP(S) server of this process, from its first request on; once. */
export function installKeepAlive(): void {
  if (shared[INSTALLED]) return
  shared[INSTALLED] = true
  onEveryRequest((request) => {
    const server = (request.socket as { server?: Server }).server
    if (server && server.keepAliveTimeout !== KEEP_ALIVE_MS) server.keepAliveTimeout = KEEP_ALIVE_MS
  })
}
