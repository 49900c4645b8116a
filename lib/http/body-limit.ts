import { ApiError } from './errors'

/**
 * The chunks of a request body as they come, refused once they pass `maxBytes` (WordPress's code for a file too big,
 * with `reason`): a stage of a pipeline that writes the body to disk, so that nothing past the limit is kept.
 */
export function bodyLimit(maxBytes: number, reason: string) {
  return async function* (source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    let size = 0
    for await (const chunk of source) {
      size += chunk.byteLength
      if (size > maxBytes) throw new ApiError('rest_upload_file_too_big', reason)
      yield chunk
    }
  }
}
