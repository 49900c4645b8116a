import { NextResponse, type NextRequest } from 'next/server'
import { getConfig } from './lib/config'
import { PLAYER_ORIGINS } from './lib/content/embeds'
import { noRoute } from './lib/http/errors'
import { plainNotFound } from './lib/http/route'
import { oldSlugRedirect } from './lib/places/old-slugs'

// Four jobs, none of them authorisation (that lives in lib/):
// 1. A path that does not decode (`/geojson/%FF`) matches no route; Next.js itself would fail on it with a 500, so
//    it is answered here: WordPress's rest_no_route under the REST namespaces, a plain 404 elsewhere.
// 2. Pages get a Content-Security-Policy with a fresh nonce, which Next.js puts on its own scripts: no other
//    script runs, whatever a title or an address holds.
// 3. The old URL of a post answers 301 to its current one, as WordPress's _wp_old_slug (lib/places/old-slugs.ts
//    decides): a page cannot answer 301 itself, only 307 or 308.
// 4. WordPress's discovery (docs/api.md, Discovery): pages name the REST index in a `Link` header, and
//    `/?rest_route=/…` is the route itself, as on a WordPress site without pretty permalinks.
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl
  try {
    decodeURIComponent(pathname)
  } catch {
    if (/^\/(wp-json\/)?places\//.test(pathname)) return noRouteResponse()
    return plainNotFound()
  }
  // Only the home page: `/` with a rest_route goes to the API, `/` without it is the map.
  if (pathname === '/' && request.nextUrl.searchParams.has('rest_route')) return restRoute(request)
  if (!isPage(pathname)) return NextResponse.next()
  if (request.method === 'GET' || request.method === 'HEAD') {
    const moved = await oldSlugRedirect(pathname, request.nextUrl.searchParams)
    if (moved) return NextResponse.redirect(new URL(moved, request.url), 301)
  }
  const policy = contentSecurityPolicy(Buffer.from(crypto.randomUUID()).toString('base64'), isEmbed(pathname))
  const headers = new Headers(request.headers)
  headers.set('Content-Security-Policy', policy)
  const response = NextResponse.next({ request: { headers } })
  response.headers.set('Content-Security-Policy', policy)
  response.headers.append('Link', `<${getConfig().siteUrl}/wp-json/>; rel="https://api.w.org/"`)
  return response
}

function noRouteResponse(): NextResponse {
  const error = noRoute()
  return NextResponse.json({ code: error.code, message: error.message, data: { status: error.status } }, { status: error.status })
}

/**
 * `/?rest_route=/places/v1/geojson&…`: the route's own answer (any method, the rest of the query, the credentials),
 * by a rewrite to its path. As WordPress: a trailing slash is dropped, and an empty route is the index.
 */
function restRoute(request: NextRequest): NextResponse {
  const url = request.nextUrl.clone()
  const route = url.searchParams.getAll('rest_route').at(-1)!.replace(/\/+$/, '')
  url.searchParams.delete('rest_route')
  const segments = route.split('/').slice(1)
  // Only a path inside the API: no `.`/`..` a URL would resolve out of it, no empty segment.
  if (route !== '' && (!route.startsWith('/') || segments.some((segment) => segment === '' || segment === '.' || segment === '..'))) return noRouteResponse()
  const path = segments.map(encodeURIComponent).join('/')
  // places/v1 at its own path; the index, oEmbed and any other (the rest_no_route of app/wp-json/[...rest]) under /wp-json.
  url.pathname = segments[0] === 'places' && segments[1] === 'v1' ? `/${path}` : `/wp-json${path ? `/${path}` : ''}`
  return NextResponse.rewrite(url)
}

function isPage(pathname: string): boolean {
  return !/^\/(places\/|basemap(\/labels\/|\.pmtiles$)|wp-json(\/|$)|ogc(\/|$)|uploads\/|api\/|healthz$|_next\/|admin\/import\/file$|feed(\/atom)?\/?$|(category|tag)\/[^/]+\/feed(\/atom)?\/?$)/.test(
    pathname,
  )
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
    // The site's own pages (its /embed map), and a post's video once its visitor asks for it (lib/content/embeds.ts).
    `frame-src 'self' ${PLAYER_ORIGINS.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // Only /embed may be framed, by EMBED_ALLOWED_ORIGINS (README, Share and embed); X-Frame-Options: next.config.mjs.
    `frame-ancestors ${embed ? getConfig().embedAllowedOrigins.join(' ') : "'none'"}`,
  ].join('; ')
}

// Paths with percent-escapes, and pages (everything but the REST and OGC routes, the basemap's names and archive, the
// feeds' own paths, uploads, /api/, Next's files, and the Import screen's upload: the proxy would hold a body in
// memory, and cut it off at 10 MB).
// As isPage(): `wp-json` (the REST index), `ogc` and `healthz` only as whole segments, so that pages of post types such
// as `ogcx` get a CSP too.
export const config = {
  matcher: [
    '/:path(.*%.*)',
    '/((?!places/|basemap/labels/|basemap\\.pmtiles$|wp-json(?:/|$)|ogc(?:/|$)|uploads/|api/|healthz$|_next/|admin/import/file$|feed(?:/atom)?/?$|(?:category|tag)/[^/]+/feed(?:/atom)?/?$).*)',
  ],
}
