import { NextResponse, type NextRequest } from 'next/server'
import { getConfig } from './lib/config'
import { noRoute } from './lib/http/errors'
import { oldSlugRedirect } from './lib/places/old-slugs'

// Three jobs, none of them authorisation (that lives in lib/):
// 1. A path that does not decode (`/geojson/%FF`) matches no route; Next.js itself would fail on it with a 500, so
//    it is answered here: WordPress's rest_no_route under the REST namespaces, a plain 404 elsewhere.
// 2. Pages get a Content-Security-Policy with a fresh nonce, which Next.js puts on its own scripts: no other
//    script runs, whatever a title or an address holds.
// 3. The old URL of a post answers 301 to its current one, as WordPress's _wp_old_slug (lib/places/old-slugs.ts
//    decides): a page cannot answer 301 itself, only 307 or 308.
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl
  try {
    decodeURIComponent(pathname)
  } catch {
    if (/^\/(wp-json\/)?places\//.test(pathname)) {
      const error = noRoute()
      return NextResponse.json({ code: error.code, message: error.message, data: { status: error.status } }, { status: 404 })
    }
    return new NextResponse('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
  if (!isPage(pathname)) return NextResponse.next()
  if (request.method === 'GET' || request.method === 'HEAD') {
    const moved = await oldSlugRedirect(pathname)
    if (moved) return NextResponse.redirect(new URL(moved, request.url), 301)
  }
  const policy = contentSecurityPolicy(Buffer.from(crypto.randomUUID()).toString('base64'), isEmbed(pathname))
  const headers = new Headers(request.headers)
  headers.set('Content-Security-Policy', policy)
  const response = NextResponse.next({ request: { headers } })
  response.headers.set('Content-Security-Policy', policy)
  return response
}

function isPage(pathname: string): boolean {
  return !/^\/(places\/|wp-json\/|ogc(\/|$)|uploads\/|api\/|healthz$|_next\/)/.test(pathname)
}

/** The chrome-less map other sites may frame (app/embed/page.tsx). */
function isEmbed(pathname: string): boolean {
  return pathname === '/embed' || pathname === '/embed/'
}

/** Where map tiles come from: MAP_TILE_URL's origin, its `{s}` subdomains as a wildcard; none for `none`. */
function tileSource(): string {
  const tiles = getConfig().mapTiles
  if (!tiles) return ''
  try {
    const url = new URL(tiles.url.replace('{s}.', 'subdomain.').replace(/\{[^}]+\}/g, '0'))
    return tiles.url.includes('{s}.') ? `${url.protocol}//*.${url.host.replace(/^subdomain\./, '')}` : url.origin
  } catch {
    return ''
  }
}

function contentSecurityPolicy(nonce: string, embed: boolean): string {
  const development = process.env.NODE_ENV === 'development'
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // The world layer's outlines are made in a worker (app/_components/world.worker.ts), a script of the site's own.
    "worker-src 'self'",
    // React and Leaflet set element styles; inline style attributes cannot run code.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${tileSource()}`.trim(),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Only /embed may be framed, by EMBED_ALLOWED_ORIGINS (README, Share and embed); X-Frame-Options: next.config.mjs.
    `frame-ancestors ${embed ? getConfig().embedAllowedOrigins.join(' ') : "'none'"}`,
  ].join('; ')
}

// Paths with percent-escapes, and pages (everything but the REST and OGC routes, uploads, /api/ and Next's files).
// As isPage(): `ogc` and `healthz` only as whole segments, so that pages of post types such as `ogcx` get a CSP too.
export const config = { matcher: ['/:path(.*%.*)', '/((?!places/|wp-json/|ogc(?:/|$)|uploads/|api/|healthz$|_next/).*)'] }
