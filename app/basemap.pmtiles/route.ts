import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { getConfig } from '@/lib/config'
import { byteRange } from '@/lib/http/range'
import { matchesEtag, route } from '@/lib/http/route'

// GET /basemap.pmtiles – the vector basemap archive of MAP_PMTILES (README, The map), read by the browser in parts
// (HTTP range requests: its header and directories, then each tile). A 404 without MAP_PMTILES.
export const GET = route(async (request: Request) => {
  const file = getConfig().mapPmtiles
  if (!file) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  const { size, mtimeMs } = await stat(file)
  // The archive's version: a new file (a region updated) is a new tag, and the browser's reader starts again from its
  // header when the tag changes under it.
  const etag = `"${size.toString(36)}-${Math.round(mtimeMs).toString(36)}"`
  const headers = new Headers({
    'Accept-Ranges': 'bytes',
    'Content-Type': 'application/vnd.pmtiles',
    ETag: etag,
    'Cache-Control': 'public, max-age=3600',
  })
  if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers })
  // If-Range names the version the client has parts of: another version is sent whole.
  const ifRange = request.headers.get('if-range')
  const range = ifRange === null || ifRange === etag ? byteRange(request.headers.get('range'), size) : null
  if (range === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${size}`)
    return new Response(null, { status: 416, headers })
  }
  const [first, last] = range ?? [0, size - 1]
  headers.set('Content-Length', String(last - first + 1))
  if (range) headers.set('Content-Range', `bytes ${first}-${last}/${size}`)
  const body =
    request.method === 'HEAD' || size === 0 ? null : (Readable.toWeb(createReadStream(file, { start: first, end: last })) as ReadableStream<Uint8Array>)
  return new Response(body, { status: range ? 206 : 200, headers })
})
