import 'server-only'
import { ServerResponse } from 'node:http'

// Next.js 16.4 drops the Content-Encoding (and Content-Length) of every Response a route handler returns
// (FORBIDDEN_HEADERS in next/dist/server/send-response.js: a Response passed on from fetch() may have been decoded),
// and its own compression (`compress`) does not reach route handlers at all. So publicResponse names its coding in a
// header of this app's own, and this turns it into Content-Encoding as Next.js copies the headers onto the node
// response, before anything is written: Next.js's compression then sees an answer already encoded and leaves it
// alone. instrumentation.ts installs it; until it is installed, publicResponse sends identity (never bytes in a
// coding the headers do not name).

/** The header publicResponse names its coding in; only it sets this header. */
export const CODING_HEADER = 'x-places-content-encoding'

const INSTALLED = Symbol.for('places.content-encoding')
const shared = globalThis as typeof globalThis & { [INSTALLED]?: true }

/** Whether this process's HTTP server turns CODING_HEADER into Content-Encoding. */
export function isCodingHeaderInstalled(): boolean {
  return shared[INSTALLED] === true
}

const renamed = (name: string) => (name.length === CODING_HEADER.length && name.toLowerCase() === CODING_HEADER ? 'Content-Encoding' : name)

/** Installs the renaming on every HTTP server response of this process; once. */
export function installCodingHeader(): void {
  if (shared[INSTALLED]) return
  shared[INSTALLED] = true
  // Next.js copies a Response's headers with appendHeader (16.4) or setHeader (later versions): both are covered.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the response as this
  const { setHeader, appendHeader } = ServerResponse.prototype
  ServerResponse.prototype.setHeader = function (this: ServerResponse, name: string, value: number | string | readonly string[]) {
    return Reflect.apply(setHeader, this, [renamed(name), value]) as ServerResponse
  } as typeof setHeader
  ServerResponse.prototype.appendHeader = function (this: ServerResponse, name: string, value: string | readonly string[]) {
    return Reflect.apply(appendHeader, this, [renamed(name), value]) as ServerResponse
  }
}
