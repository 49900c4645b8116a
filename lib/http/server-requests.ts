import 'server-only'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import https from 'node:https'

// Next.js shows route handlers neither the socket nor the raw response. What must be done to every request as the
// HTTP server receives it, before Next.js sees it (instrumentation.ts installs each), goes through this one wrapper
// of the servers' `emit`: the client's address (lib/auth/client-address.ts), and closing a connection whose request
// body was left half-read (unread-body.ts).

type RequestHook = (request: IncomingMessage, response: ServerResponse) => void

const HOOKS = Symbol.for('places.request-hooks')
const shared = globalThis as typeof globalThis & { [HOOKS]?: RequestHook[] }

/** Runs `hook` on each request every HTTP(S) server of this process receives from now on, in the order installed. */
export function onEveryRequest(hook: RequestHook): void {
  if (shared[HOOKS]) {
    shared[HOOKS].push(hook)
    return
  }
  const hooks: RequestHook[] = [hook]
  shared[HOOKS] = hooks
  for (const Server of [http.Server, https.Server]) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the server as this
    const emit = Server.prototype.emit
    Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === 'request') for (const each of hooks) each(args[0] as IncomingMessage, args[1] as ServerResponse)
      return Reflect.apply(emit, this, [event, ...args]) as boolean
    } as typeof emit
  }
}
