import 'server-only'
import Negotiator from 'negotiator'
import { z } from 'zod'
import type { OgcLink } from '../api/contract'
import { ApiError } from '../http/errors'
import { errorResponse, route } from '../http/route'
import { parseQuery, queryValues } from '../places/schemas'
import { formatParam } from './features'
import { errorHtml, OGC_HTML_CSP, withFormat } from './html'

/** A resource of the OGC API: its document, the media type it is sent as, and its page. */
export type OgcAnswer = { json: object; contentType: string; html: () => string | Promise<string> }

type Format = 'json' | 'html'

const formatQuerySchema = z.object({ f: formatParam }).partial()

/** Without `f`: HTML for a client that prefers it to JSON (a browser); JSON for any other, `*\/*` and none included. */
function negotiated(request: Request): Format {
  const accept = request.headers.get('accept') ?? undefined
  const best = new Negotiator({ headers: { accept } }).mediaType(['application/json', 'application/geo+json', 'text/html'])
  return best === 'text/html' ? 'html' : 'json'
}

/** `f` when given (a 400 when it is not one of formatParam's), else the Accept header. */
function requested(request: Request): Format {
  const { f } = parseQuery(formatQuerySchema, queryValues(new URL(request.url).searchParams, 'first'))
  if (!f) return negotiated(request)
  return f === 'html' ? 'html' : 'json'
}

/**
 * The paging links as a Link header (RFC 8288), as QGIS and other clients follow them without reading the body,
 * in the format of the answer.
 */
function linkHeader(links: OgcLink[], format: Format): string | null {
  const paging = links.filter((l) => l.rel === 'next' || l.rel === 'prev')
  if (paging.length === 0) return null
  const type = format === 'html' ? 'text/html' : (paging[0]!.type ?? 'application/json')
  return paging.map((l) => `<${format === 'html' ? withFormat(l.href, 'html') : l.href}>; rel="${l.rel}"; type="${type}"`).join(', ')
}

function htmlResponse(body: string, status: number): Response {
  return new Response(body, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': OGC_HTML_CSP } })
}

/**
 * A route of the OGC API (docs/api.md, OGC API – Features): JSON or HTML as `f` or the Accept header asks, errors
 * too, with the paging Link header; public, and varying by Accept since the same URL may answer either.
 */
export function ogcRoute<C>(answer: (request: Request, context: C) => OgcAnswer | Promise<OgcAnswer>) {
  return route(
    async (request: Request, context: C) => {
      let format = negotiated(request)
      let response: Response
      try {
        format = requested(request)
        const document = await answer(request, context)
        response =
          format === 'html' ? htmlResponse(await document.html(), 200) : Response.json(document.json, { headers: { 'Content-Type': document.contentType } })
        const links = 'links' in document.json ? linkHeader(document.json.links as OgcLink[], format) : null
        if (links) response.headers.set('Link', links)
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        response =
          format === 'html'
            ? htmlResponse(errorHtml(error.status, error.message, error.data.params as Record<string, string> | undefined), error.status)
            : errorResponse(error)
      }
      response.headers.set('Vary', 'Accept')
      return response
    },
    { cors: true },
  )
}
