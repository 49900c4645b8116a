import { authenticate } from '@/lib/auth/credentials'
import { route } from '@/lib/http/route'
import { openPublicImage } from '@/lib/media/attachments'

// GET /uploads/{YYYY}/{MM}/{name} – an uploaded image as visitors see it: without its location metadata
export const GET = route(async (request: Request, { params }: RouteContext<'/uploads/[...path]'>) => {
  const image = await openPublicImage((await params).path.join('/'), () => authenticate(request))
  if (request.headers.get('if-none-match') === image.etag) {
    await image.body.cancel()
    return new Response(null, { status: 304, headers: { ETag: image.etag } })
  }
  return new Response(image.body, {
    headers: {
      'Content-Type': image.mimeType,
      'Content-Length': String(image.size),
      ETag: image.etag,
      'Cache-Control': image.isPublic ? 'public, max-age=3600' : 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'",
    },
  })
})
