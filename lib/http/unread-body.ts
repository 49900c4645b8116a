import 'server-only'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { onEveryRequest } from './server-requests'

// An answer to a request whose body was read in part, and no further (an upload refused half-way, over the size
// limit), closes the connection: its headers say `Connection: close`, so the client does not reuse it.
//
// After an answer, Node's HTTP server reads away the rest of a request's body only when nothing has begun to read
// it (`req._dump()` in resOnFinish, node/lib/_http_server.js); a body nobody touched (a 401, a sign-in form refused
// for its length) is read away and the connection kept, as before. But a body read in part is left unread: the
// connection is still advertised `Keep-Alive: timeout=5`, a request sent on it is never read, and the server
// destroys the socket when its keep-alive timer runs out (the client sees ECONNRESET or "other side closed" after
// 6 s). Reading the rest instead would take in the whole refused upload for nothing; nginx closes, as this does.
// test/server/keep-alive.test.ts shows it.

const INSTALLED = Symbol.for('places.close-after-unread-body')
const shared = globalThis as typeof globalThis & { [INSTALLED]?: true }

/** Installs this on every HTTP(S) server of this process; once. */
export function installCloseAfterUnreadBody(): void {
  if (shared[INSTALLED]) return
  shared[INSTALLED] = true
  onEveryRequest(closeIfBodyUnread)
}

function closeIfBodyUnread(request: IncomingMessage, response: ServerResponse): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the response as this
  const writeHead = response.writeHead
  // Every answer's headers go out through writeHead (an implicit header too: ServerResponse#_implicitHeader).
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (request.readableDidRead && !request.complete) this.shouldKeepAlive = false
    return Reflect.apply(writeHead, this, args) as ServerResponse
  }
}
