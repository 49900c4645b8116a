import { authenticate } from '@/lib/auth/credentials'
import { noRoute } from '@/lib/http/errors'
import { route } from '@/lib/http/route'
import { getAttachmentGps } from '@/lib/media/attachment-gps'
import { parsePostId } from '@/lib/places/schemas'

// GET /places/v1/attachment-exif-gps/{id} – where the post's first photo with GPS was taken (needs edit_post)
export const GET = route(
  async (request: Request, { params }: RouteContext<'/places/v1/attachment-exif-gps/[id]'>) => {
    const id = parsePostId((await params).id)
    if (id === null) throw noRoute()
    const gps = await getAttachmentGps(await authenticate(request), id)
    return Response.json(gps)
  },
  { private: true },
)
