import { NextResponse, type NextRequest } from 'next/server'
import { noRoute } from './lib/http/errors'

// Only paths with percent-escapes come here (see `config`). One that does not decode (`/geojson/%FF`) matches no
// route; Next.js itself would fail on it with a 500, so it is answered here: WordPress's rest_no_route under the
// REST namespaces, a plain 404 elsewhere. Authorisation is not done here: it lives in lib/.
export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname)
    return NextResponse.next()
  } catch {
    if (/^\/(wp-json\/)?places\//.test(request.nextUrl.pathname)) {
      const error = noRoute()
      return NextResponse.json({ code: error.code, message: error.message, data: { status: error.status } }, { status: 404 })
    }
    return new NextResponse('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  }
}

export const config = { matcher: ['/:path(.*%.*)'] }
