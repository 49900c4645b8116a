import { invalidParams } from '../http/errors'
import { parsePostId } from '../places/schemas'

/** The post and names of an upload: `?post=ID[&title=T]`, and the file name from Content-Disposition. */
export function parseUploadRequest(request: Request): { postId: number; filename: string; title?: string } {
  const params = new URL(request.url).searchParams
  const postId = parsePostId(params.get('post') ?? '')
  if (postId === null) throw invalidParams({ post: 'post must be the id of the post the image is for.' })
  const disposition = request.headers.get('content-disposition') ?? ''
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition)?.[1]
  let filename = /filename\s*=\s*"([^"]*)"/i.exec(disposition)?.[1] ?? /filename\s*=\s*([^;"\s]+)/i.exec(disposition)?.[1] ?? 'image'
  if (encoded) {
    try {
      filename = decodeURIComponent(encoded)
    } catch {
      throw invalidParams({ 'content-disposition': 'The file name is not valid UTF-8 percent-encoding.' })
    }
  }
  return { postId, filename, title: params.get('title') ?? undefined }
}
