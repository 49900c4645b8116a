import { authenticate } from '@/lib/auth/credentials'
import { route } from '@/lib/http/route'
import { openPublicImage } from '@/lib/media/attachments'
import { imageResponse } from '@/lib/media/image-response'

// GET /uploads/{YYYY}/{MM}/{name} – an uploaded image as visitors see it: without its location metadata
export const GET = route(async (request: Request, { params }: RouteContext<'/uploads/[...path]'>) => {
  const image = await openPublicImage((await params).path.join('/'), () => authenticate(request))
  return imageResponse(request, image)
})
