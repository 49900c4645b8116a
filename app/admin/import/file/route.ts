import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { saveImportUpload } from '@/lib/admin/import'
import { authenticate } from '@/lib/auth/credentials'
import { invalidParams } from '@/lib/http/errors'
import { route } from '@/lib/http/route'

// POST /admin/import/file – the Import screen's upload, the file as the body (so the browser shows its progress);
// answers {"token"}, which names it to the screen's later steps (lib/admin/import.ts). A cookie counts only from this
// site's own pages (authenticate).
export const POST = route(
  async (request: Request) => {
    if (!request.body) throw invalidParams({ body: 'The request has no file in its body.' })
    const token = await saveImportUpload(await authenticate(request), Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>))
    return Response.json({ token }, { status: 201 })
  },
  { private: true },
)
