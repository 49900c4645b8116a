import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { getConfig } from '@/lib/config'
import { byteRange } from '@/lib/http/range'
import { matchesEtag, plainNotFound, route } from '@/lib/http/route'

// GET /basemap.pmtiles – the vector basemap archive of MAP_PMTILES (README, The map), read by the browser in parts
// (HTTP range requests: its header and directories, then each tile). A 404 without MAP_PMTILES.
export const GET = route(async (request: Request) => {
  const file = getConfig().mapPmtiles
  if (!file) return plainNotFound()
  // One open file for the whole answer: an archive replaced meanwhile (`mv new.pmtiles …`) cannot mix its tag with
  // another file's bytes.
  const handle = await open(file)
  const { size, mtimeMs } = await handle.stat()
  // The archive's version: a new file (a region updated) is a new tag, and the browser's reader starts again from its
  // header when the tag changes under it.
  const etag = `"${size.toString(36)}-${Math.round(mtimeMs).toString(36)}"`
  const headers = new Headers({
    'Accept-Ranges': 'bytes',
    'Content-Type': 'application/vnd.pmtiles',
    ETag: etag,
    'Cache-Control': 'public, max-age=3600',
  })
  // If-Range names the version the client has parts of: another version is sent whole.
  const ifRange = request.headers.get('if-range')
  const range = ifRange === null || ifRange === etag ? byteRange(request.headers.get('range'), size) : null
  const [first, last] = range === 'unsatisfiable' ? [0, -1] : (range ?? [0, size - 1])
  const status = matchesEtag(request.headers.get('if-none-match'), etag) ? 304 : range === 'unsatisfiable' ? 416 : range ? 206 : 200
  if (status === 206 || status === 416) headers.set('Content-Range', status === 416 ? `bytes */${size}` : `bytes ${first}-${last}/${size}`)
  // Next answers HEAD through GET and never reads the body.
  if (status === 304 || status === 416 || request.method === 'HEAD' || size === 0) {
    await handle.close()
    return new Response(null, { status, headers })
  }
  return new Response(Readable.toWeb(handle.createReadStream({ start: first, end: last })) as ReadableStream<Uint8Array>, { status, headers })
})
