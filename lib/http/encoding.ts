import Negotiator from 'negotiator'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

/** The content codings the public answers are sent in (docs/api.md, Compression). */
export type Coding = 'br' | 'gzip' | 'identity'

// In the order the server prefers when the client ranks them equally: brotli is the smaller.
const CODINGS: Coding[] = ['br', 'gzip', 'identity']

/**
 * The codings this request accepts, its preferred first (q-values, `*` and `identity` as RFC 9110 §12.5.3 reads
 * them, by jshttp's negotiator; ties go to br). No header is identity alone. A header that refuses everything,
 * identity included (`identity;q=0`), still gets identity: RFC 9110 allows it, and a 406 helps nobody.
 */
export function acceptedCodings(request: Request): Coding[] {
  const header = request.headers.get('accept-encoding') ?? undefined
  // @types/negotiator lacks negotiator 1.x's `preferred`, which breaks ties (`gzip, br`) in the server's order.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as Negotiator & {
    encodings(available: readonly string[], options: { preferred: readonly string[] }): string[]
  }
  const accepted = negotiator.encodings(CODINGS, { preferred: CODINGS }) as Coding[]
  return accepted.length > 0 ? accepted : ['identity']
}

/**
 * The ETag of an answer in a coding: the identity's own, else the same tag with `-br` or `-gz` inside its quotes
 * (weak stays weak). Each coding is different bytes, so each has its own tag.
 */
export function codingEtag(etag: string, coding: Coding): string {
  if (coding === 'identity') return etag
  return etag.replace(/"$/, `${coding === 'br' ? '-br' : '-gz'}"`)
}

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

// Quality 5 of 11: the bench's 500 page 6.5 times smaller in 2.5 ms, about 15 ms a megabyte for larger answers;
// 11 makes it 7.9 times smaller in 130 ms (BENCHMARKS.md, Compression). Text mode: every answer so encoded is text.
const BROTLI_QUALITY = 5

/**
 * The bytes in a coding, compressed in libuv's thread pool (the event loop goes on serving meanwhile). gzip at zlib's
 * default level (6).
 */
export async function encode(bytes: Uint8Array<ArrayBuffer>, coding: Coding): Promise<Uint8Array<ArrayBuffer>> {
  if (coding === 'identity') return bytes
  const encoded =
    coding === 'br'
      ? await brotli(bytes, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      : await gzipAsync(bytes)
  // A copy of its own: a small Buffer is a slice of node's shared pool, which the cache would otherwise keep whole.
  return new Uint8Array(encoded)
}
