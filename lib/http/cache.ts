import 'server-only'
import { LRUCache } from 'lru-cache'
import { getConfig } from '../config'

type Build = () => Promise<string>
/** An answer's bytes, as a Response body takes them. */
export type Bytes = Uint8Array<ArrayBuffer>

const encoder = new TextEncoder()
let cache: LRUCache<string, Bytes, Build> | null | undefined

/**
 * The bytes of a public answer, built once per data version and query, and kept in memory (RESPONSE_CACHE_MB,
 * least recently used out first). Every write bumps the data version, so an answer is never served for data it does
 * not show, and answers of older versions age out unused. Requests for an answer being built wait for that build.
 * `version` must be read before the data that `build` reads: the bytes are then never older than their version.
 */
export async function cachedBody(version: number, key: string, build: Build): Promise<Bytes> {
  if (cache === undefined) {
    const maxSize = getConfig().responseCacheBytes
    cache =
      maxSize === 0
        ? null
        : new LRUCache<string, Bytes, Build>({
            maxSize,
            // The bytes, and roughly what the key and the cache's own bookkeeping take beside them.
            sizeCalculation: (bytes, key) => bytes.byteLength + 2 * key.length + 200,
            fetchMethod: async (_key, _stale, { context }) => encoder.encode(await context()),
          })
  }
  if (cache === null) return encoder.encode(await build())
  // An answer too large to keep is still returned; fetch gives undefined only when aborted, which nothing here does.
  return (await cache.fetch(`${version} ${key}`, { context: build })) ?? encoder.encode(await build())
}
