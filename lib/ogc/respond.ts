import 'server-only'
import Negotiator from 'negotiator'
import { z } from 'zod'
import type { OgcLink } from '../api/contract'
import { ApiError } from '../http/errors'
import { addVary, errorResponse, publicResponse, route } from '../http/route'
import { publicAnswer } from '../places/public'
import { parseQuery, queryValues } from '../places/schemas'
import { formatParam } from './features'
import { errorHtml, OGC_HTML_CSP, withFormat } from './html'

/** A resource of the OGC API: its document, and its page. */
export type OgcAnswer = { json: object; html: () => string | Promise<string> }

type Format = 'json' | 'html'

/** The query of a resource that takes only `f`: any other parameter is a 400, as OGC API – Common requires. */
const onlyFormatSchema = z.strictObject({ f: formatParam }).partial()

/** Without `f`: HTML for a client that prefers it to JSON (a browser); JSON for any other, `*\/*` and none included. */
function negotiated(request: Request): Format {
  const accept = request.headers.get('accept') ?? undefined
  const best = new Negotiator({ headers: { accept } }).mediaType(['application/json', 'application/geo+json', 'text/html'])
  return best === 'text/html' ? 'html' : 'json'
}

/**
 * `f` when it is one of formatParam's, else the format the Accept header negotiated. An `f` that is not is left to
 * the route's query, which names it in its 400 with any other bad parameter (every query of the API takes `f`).
 */
function requested(params: URLSearchParams, negotiatedFormat: Format): Format {
  const f = params.get('f')
  if (f === null || !(formatParam.options as readonly string[]).includes(f)) return negotiatedFormat
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

const HTML_TYPE = 'text/html; charset=utf-8'
// Bump when the pages or documents change shape, so that clients and caches do not keep the old ones.
const OGC_FORMAT = 'places-ogc-4'
/**
 * A route of the OGC API (docs/api.md, OGC API – Features): JSON (as `contentType`) or HTML as `f` or the Accept
 * header asks, errors too; public, varying by Accept since the same URL may answer either. Answers are built once
 * per data version, format and query and kept, as the REST routes' (lib/places/public.ts); `answer` is given the
 * version, read before any data. `query` reads the parameters the answer depends on (it throws on invalid or
 * unknown ones, `f` among them; by default the resource takes only `f`): the cache keeps one answer per meaning, not
 * one per spelling of the query string.
 */
export function ogcRoute<C>(
  contentType: string,
  answer: (request: Request, context: C, version: number) => OgcAnswer | Promise<OgcAnswer>,
  query: (params: URLSearchParams) => unknown = (params) => parseQuery(onlyFormatSchema, queryValues(params, 'first')),
) {
  return route(
    async (request: Request, context: C) => {
      // An error is answered in the negotiated format until `f` is known to be valid.
      let format = negotiated(request)
      let response: Response
      try {
        const url = new URL(request.url)
        format = requested(url.searchParams, format)
        const build = async (version: number) => {
          const document = await answer(request, context, version)
          return {
            // The Link header, kept beside the body in the cache
            head: ('links' in document.json ? linkHeader(document.json.links as OgcLink[], format) : null) ?? '',
            body: format === 'html' ? await document.html() : JSON.stringify(document.json),
          }
        }
        const answered = await publicAnswer('ogc', [format, url.pathname, query(url.searchParams)], build, { format: `${OGC_FORMAT} ${format}`, mayFail: true })
        response = await publicResponse(request, {
          // Weak: the bytes of a version may differ if built again (the items' timeStamp), their meaning does not.
          etag: `W/${answered.etag}`,
          body: answered.body,
          contentType: format === 'html' ? HTML_TYPE : contentType,
          headers: { ...(format === 'html' ? { 'Content-Security-Policy': OGC_HTML_CSP } : {}), ...(answered.head ? { Link: answered.head } : {}) },
        })
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        response =
          format === 'html'
            ? new Response(errorHtml(error.status, error.message, error.data.params as Record<string, string> | undefined), {
                status: error.status,
                headers: { 'Content-Type': HTML_TYPE, 'Content-Security-Policy': OGC_HTML_CSP },
              })
            : errorResponse(error)
      }
      addVary(response.headers, 'Accept')
      return response
    },
    { cors: true },
  )
}
