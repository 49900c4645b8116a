import 'server-only'
import { getConfig } from '../config'
import type { Bytes } from './cache'
import { CODING_HEADER, isCodingHeaderInstalled } from './content-encoding'
import { acceptedCodings, codingEtag, type Coding } from './encoding'
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
  const response = Response.json(body, { status: error.status })
  // A refusal for now (a 429) says when to try again in the header clients and proxies read, as well as in the body.
  if (typeof error.data.retryAfter === 'number') response.headers.set('Retry-After', String(error.data.retryAfter))
  return response
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
        response = errorResponse(new ApiError('internal_server_error', 'The server could not answer this request.'))
      }
    }
    if (options.cors) for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value)
    if (options.private) response.headers.set('Cache-Control', 'private, no-store')
    logRequest(request, response.status, started)
    return response
  }
}

/** A plain 404, for what is no page and no REST route (a tile that does not exist, a path that does not decode). */
export function plainNotFound(): Response {
  return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
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

/** Adds a request header's name to a response's Vary, keeping the names already there. */
export function addVary(headers: Headers, name: string): void {
  const names = (headers.get('Vary') ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean)
  if (!names.some((n) => n.toLowerCase() === name.toLowerCase() || n === '*')) headers.set('Vary', [...names, name].join(', '))
}

const IDENTITY_ONLY: Coding[] = ['identity']

/** A public answer as publicResponse sends it. */
export type PublicAnswer = {
  /** the identity's ETag, known before the body is built; each coding's is made from it (codingEtag) */
  etag: string
  /** the body in a coding: from the answers' cache (lib/http/cache.ts), so that each coding is compressed once */
  body: (coding: Coding) => Promise<Bytes>
  contentType: string
  /** more headers of the 200 (a Link, a Content-Security-Policy) */
  headers?: Record<string, string>
}

/**
 * The one way a cached public answer is sent (docs/api.md, Caching and Compression): in the best coding the client
 * accepts (br, gzip or identity) with that coding's ETag, `Vary: Accept-Encoding`, and cached as publicCacheControl()
 * says; 304 when If-None-Match names the answer's tag in a coding this request accepts (the 304 names that tag, so a
 * cache knows which of its copies is current). HEAD is GET without the body (Next.js drops it). The coding is named
 * in CODING_HEADER, which reaches the client as Content-Encoding (lib/http/content-encoding.ts).
 */
export async function publicResponse(request: Request, answer: PublicAnswer): Promise<Response> {
  const accepted = isCodingHeaderInstalled() ? acceptedCodings(request) : IDENTITY_ONLY
  const ifNoneMatch = request.headers.get('if-none-match')
  const headers = new Headers({ 'Cache-Control': publicCacheControl(), Vary: 'Accept-Encoding' })
  const current = ifNoneMatch === null ? undefined : accepted.find((coding) => matchesEtag(ifNoneMatch, codingEtag(answer.etag, coding)))
  if (current) {
    headers.set('ETag', codingEtag(answer.etag, current))
    return new Response(null, { status: 304, headers })
  }
  const coding = accepted[0]!
  const body = await answer.body(coding)
  headers.set('ETag', codingEtag(answer.etag, coding))
  headers.set('Content-Type', answer.contentType)
  if (coding !== 'identity') headers.set(CODING_HEADER, coding)
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers.set(name, value)
  return new Response(body, { status: 200, headers })
}
