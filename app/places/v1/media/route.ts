import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { authenticate } from '@/lib/auth/credentials'
import { invalidParams } from '@/lib/http/errors'
import { route } from '@/lib/http/route'
import { uploadAttachment } from '@/lib/media/attachments'
import { parseUploadRequest } from '@/lib/media/upload-request'

// POST /places/v1/media?post={id}[&title=…] – upload one image to a post (the raw file as the body, its name in
// Content-Disposition, as WordPress's POST /wp/v2/media takes it); needs edit_post on that post
export const POST = route(
  async (request: Request) => {
    const upload = parseUploadRequest(request)
    if (!request.body) throw invalidParams({ body: 'The request has no file in its body.' })
    const attachment = await uploadAttachment(await authenticate(request), {
      ...upload,
      body: Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>),
    })
    return Response.json(attachment, { status: 201 })
  },
  { private: true },
)
