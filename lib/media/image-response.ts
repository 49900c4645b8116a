import 'server-only'
import { getConfig } from '../config'
import { matchesEtag } from '../http/route'
import type { ImageFile } from './attachments'

// An image of a published post may be kept by any cache, but only on condition that it asks again before each use
// (`no-cache`): the question reaches openPublicImage, which checks the post is still published, so unpublishing
// a post hides its images at once, even from a CDN that holds them. The validators make the question cheap, a 304
// without the file being read. (A `max-age` would let caches serve the image of a post unpublished since.) An image
// that only editors may see is kept by no cache.
//
// A size of a published post's image (lib/media/renditions.ts) is the exception: its name is made from its bytes,
// so what is at its address never changes and a browser may keep it for a year without asking. Shared caches (a CDN)
// keep it only SHARED_CACHE_SECONDS (`s-maxage`), then ask again, as for the GeoJSON routes: once the post is
// unpublished they get the 404 (SECURITY.md, Photos). Only a browser that showed it keeps its own copy.
const PUBLIC = 'public, no-cache'
const immutable = () => `public, max-age=31536000, s-maxage=${getConfig().sharedCacheSeconds}, immutable`
const PRIVATE = 'private, no-store'

/**
 * Whether the client's copy is current (RFC 9110 §13.1): If-None-Match decides when sent; otherwise
 * If-Modified-Since, to the second, as HTTP dates go.
 */
function isNotModified(request: Request, image: ImageFile): boolean {
  const ifNoneMatch = request.headers.get('if-none-match')
  if (ifNoneMatch !== null) return matchesEtag(ifNoneMatch, image.etag)
  const since = Date.parse(request.headers.get('if-modified-since') ?? '')
  return Number.isFinite(since) && Math.floor(image.lastModified.getTime() / 1000) * 1000 <= since
}

/** The answer to GET /uploads/…: the image, or a 304 when the client's copy is current. */
export async function imageResponse(request: Request, image: ImageFile): Promise<Response> {
  const validators = {
    ETag: image.etag,
    'Last-Modified': image.lastModified.toUTCString(),
    'Cache-Control': image.isPublic ? (image.immutable ? immutable() : PUBLIC) : PRIVATE,
  }
  if (isNotModified(request, image)) return new Response(null, { status: 304, headers: validators })
  const headers = {
    ...validators,
    'Content-Type': image.mimeType,
    'Content-Length': String(image.size),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'",
  }
  // Next answers HEAD through GET and never reads the body: opened, the file (an S3 connection) would stay held.
  if (request.method === 'HEAD') return new Response(null, { headers })
  return new Response(await image.open(), { headers })
}
