import 'server-only'
import { getConfig } from '../config'
import type { Bytes } from './cache'
import { ApiError } from './errors'

type Handler<C> = (request: Request, context: C) => Promise<Response>
/** What a route file writes: async or not, route() awaits it. */
type RouteHandler<C> = (request: Request, context: C) => Response | Promise<Response>

// As WordPress's REST server sends them: any origin may read the public routes.
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, If-None-Match',
  'Access-Control-Expose-Headers': 'ETag, Link',
  'Access-Control-Max-Age': '86400',
} as const

export function errorResponse(error: ApiError): Response {
  const body = { code: error.code, message: error.message, data: { status: error.status, ...error.data } }
  return Response.json(body, { status: error.status })
}

type RouteOptions = {
  /** a public route: any origin may read it */
  cors?: boolean
  /** an answer for one caller only: no cache may keep it */
  private?: boolean
}

const LOG_REQUESTS = process.env.LOG_REQUESTS !== 'false'

/**
 * One JSON line per API request on stdout: when, what, how it ended, how long it took. Only the method and path
 * (no query string, no headers, no body): nothing secret is written.
 */
function logRequest(request: Request, status: number, started: number): void {
  if (!LOG_REQUESTS) return
  const { pathname } = new URL(request.url)
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), method: request.method, path: pathname, status, ms: Math.round((performance.now() - started) * 10) / 10 })}\n`,
  )
}

/** The one place where errors become responses; anything unexpected is logged and answered with a bare 500. */
export function route<C>(handler: RouteHandler<C>, options: RouteOptions = {}): Handler<C> {
  return async (request, context) => {
    const started = performance.now()
    let response: Response
    try {
      response = await handler(request, context)
    } catch (error) {
      if (error instanceof ApiError) {
        response = errorResponse(error)
      } else {
        console.error(`${request.method} ${new URL(request.url).pathname} failed:`, error)
        response = errorResponse(new ApiError('internal_server_error', 'The server could not answer this request.', 500))
      }
    }
    if (options.cors) for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value)
    if (options.private) response.headers.set('Cache-Control', 'private, no-store')
    logRequest(request, response.status, started)
    return response
  }
}

/** The answer to a CORS preflight of a public route. */
export function preflight(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS })
}

/** Whether an If-None-Match header names this ETag (or `*`); weak comparison, as RFC 9110 asks for GET. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}

/**
 * Browsers keep a public answer and ask again each time (`max-age=0`), which costs them a 304 when nothing changed;
 * shared caches (a CDN, nginx) may serve it for SHARED_CACHE_SECONDS first (`s-maxage`): a write shows through them
 * within that time.
 */
export function publicCacheControl(): string {
  return `public, max-age=0, s-maxage=${getConfig().sharedCacheSeconds}`
}

/**
 * A public GeoJSON answer (or another public answer of `contentType`, as the REST index): 304 when the client's copy
 * is current, else the body, cached as publicCacheControl() says.
 */
export async function geojsonResponse(
  request: Request,
  etag: string,
  body: () => Promise<Bytes | string>,
  contentType = 'application/geo+json',
): Promise<Response> {
  const headers = { ETag: etag, 'Cache-Control': publicCacheControl() }
  if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
  return new Response(await body(), { status: 200, headers: { ...headers, 'Content-Type': contentType } })
}
