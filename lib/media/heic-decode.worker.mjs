// A worker thread of lib/media/heic-pool.ts: decodes HEIC files with libheif in WebAssembly, which runs
// synchronously for seconds on a 12 MP iPhone photo, off the server's event loop. One file at a time; the pixels go
// back without a copy (their buffer is transferred). Plain JavaScript: under tsx (the command line, the tests) a
// worker thread does not get tsx's loader, and Next.js's bundler takes this file as it is.
//
// In: { bytes: Uint8Array }. Out: { width, height, data: Uint8ClampedArray (RGBA) } or { error: string }.
import { parentPort } from 'node:worker_threads'
import decodeHeic from 'heic-decode'

const port = parentPort
if (!port) throw new Error('lib/media/heic-decode.worker.mjs runs as a worker thread (lib/media/heic-pool.ts)')

port.on('message', ({ bytes }) => {
  decodeHeic({ buffer: bytes }).then(
    ({ width, height, data }) => port.postMessage({ width, height, data }, [data.buffer]),
    (error) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  )
})
