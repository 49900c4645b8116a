import 'server-only'
import { LRUCache } from 'lru-cache'
import { getConfig } from '../config'
import { encode, type Coding } from './encoding'

/** What an answer's build gives: its body, or its body and a line kept beside it (the OGC answers' Link header). */
export type Built = string | { body: string; head: string }
type Build = () => Promise<Built>
/** An answer's bytes, as a Response body takes them. */
export type Bytes = Uint8Array<ArrayBuffer>
/** An answer as the cache keeps it: its body in one coding, and the line its build kept beside it ('' if none). */
export type CachedAnswer = { body: Bytes; head: string }

const encoder = new TextEncoder()
type Context = { build: Build; coding: Coding; identityKey: string }
let cache: LRUCache<string, CachedAnswer, Context> | null | undefined

async function built(build: Build): Promise<CachedAnswer> {
  const answer = await build()
  return typeof answer === 'string' ? { body: encoder.encode(answer), head: '' } : { body: encoder.encode(answer.body), head: answer.head }
}

/**
 * A public answer, built once per data version and query, and kept in memory (RESPONSE_CACHE_MB, least recently
 * used out first). Every write bumps the data version, so an answer is never served for data it does not show, and
 * answers of older versions age out unused. Requests for an answer being built wait for that build.
 * `version` must be read before the data that `build` reads: the bytes are then never older than their version.
 *
 * Each coding (br, gzip) is compressed from the identity bytes once, on the first request that asks for it, and kept
 * as an entry of its own, counted in the cache's size as any other: the cache holds the codings it has served.
 */
export async function cachedAnswer(version: number, key: string, build: Build, coding: Coding = 'identity'): Promise<CachedAnswer> {
  if (cache === undefined) {
    const maxSize = getConfig().responseCacheBytes
    cache =
      maxSize === 0
        ? null
        : new LRUCache<string, CachedAnswer, Context>({
            maxSize,
            // The bytes, and roughly what the key, the head and the cache's own bookkeeping take beside them.
            sizeCalculation: (answer, key) => answer.body.byteLength + 2 * (key.length + answer.head.length) + 200,
            fetchMethod: async (_key, _stale, { context }) => {
              if (context.coding === 'identity') return built(context.build)
              const identity = (await cache!.fetch(context.identityKey, { context: { ...context, coding: 'identity' } })) ?? (await built(context.build))
              return { body: await encode(identity.body, context.coding), head: identity.head }
            },
          })
  }
  if (cache === null) {
    const answer = await built(build)
    return { body: await encode(answer.body, coding), head: answer.head }
  }
  const identityKey = `${version} identity ${key}`
  const cacheKey = coding === 'identity' ? identityKey : `${version} ${coding} ${key}`
  // An answer too large to keep is still returned; fetch gives undefined only when aborted, which nothing here does.
  const answer = await cache.fetch(cacheKey, { context: { build, coding, identityKey } })
  if (answer) return answer
  const identity = await built(build)
  return { body: await encode(identity.body, coding), head: identity.head }
}

/** The body of a public answer in a coding: cachedAnswer's, for answers that keep nothing beside it. */
export async function cachedBody(version: number, key: string, build: () => Promise<string>, coding: Coding = 'identity'): Promise<Bytes> {
  return (await cachedAnswer(version, key, build, coding)).body
}
