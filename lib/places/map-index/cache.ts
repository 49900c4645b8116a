import 'server-only'
import { LRUCache } from 'lru-cache'
import { findIdsContaining, readPlaceChanges } from '../query'
import { BYTES_PER_PLACE, rangeOf, ranksBetween, subsetOf, withChanges, type PlaceIndex } from './place-index'
import type { Published } from '../schemas'
import { readPlaceIndex, type PlaceIndexQuery } from './read'

// Indexes of the filters (post type, category, tag) asked for lately, each for the data version it was built from.
// The home map's (posts, every category and tag) is always kept: requests for other filters cannot push it out. The
// others are kept while they fit in MAX_OTHER_INDEX_BYTES together and number at most MAX_OTHER_INDEXES (which also
// bounds the builds under way), least recently used first out; the one used last is kept whatever its size. A filter
// with no public places gets no index at all (one indexed query answers that). README.md, "Parameters for maps".
// A `search` and a time interval (`after`, `before`) are more parts of the key: their index holds only the places
// they match, taken from the index of its filter (of its search, for an interval), so that clusters, counts and pages
// of a search or an interval are those of any other index. Anyone can ask for any search or interval, so each kind
// has a cache of its own, smaller (they cannot push out the categories' indexes, nor intervals, which cost no read
// of the database, the searches'); a search's key ignores ASCII case (the match does too), and searches' reads of the
// text index run one at a time: a flood of distinct searches waits in line instead of reading the database in
// parallel (docs/api.md, search).
const BYTES_PER_INDEX = 4096 // the arrays' and objects' own overhead, however few the places; a build's size until it ends
const MAX_OTHER_INDEX_BYTES = 48 * 1024 * 1024
const MAX_OTHER_INDEXES = 64
const MAX_DERIVED_INDEX_BYTES = 16 * 1024 * 1024
const MAX_DERIVED_INDEXES = 16 // of each kind

type CachedIndex = { version: number; index: Promise<PlaceIndex>; bytes: number }

/** `postType\ncategoryId\ntagId`, and for a derived index `\n` and its kind (`s`earch or `i`nterval) before `[search, published]`. */
function indexKey({ postType, categoryId, tagId, search, published }: PlaceIndexQuery): string {
  const filter = `${postType}\n${categoryId ?? ''}\n${tagId ?? ''}`
  if (!search && !published) return filter
  return `${filter}\n${published ? 'i' : 's'}${JSON.stringify([search?.replace(/[A-Z]/g, (c) => c.toLowerCase()) ?? null, published ?? null])}`
}
/** Which kind of derived index a key names (the JSON after it holds no line break), or none. */
const derivedKind = (key: string): string | undefined => key.split('\n')[3]?.[0]
const HOME_KEY = indexKey({ postType: 'post', categoryId: null })

/** The home map's index in a slot of its own, the others in an LRU cache (the same package as the answers'). */
class PlaceIndexCache {
  private home: CachedIndex | undefined
  private readonly others = lruOf(MAX_OTHER_INDEXES, MAX_OTHER_INDEX_BYTES)
  private readonly searches = lruOf(MAX_DERIVED_INDEXES, MAX_DERIVED_INDEX_BYTES)
  private readonly intervals = lruOf(MAX_DERIVED_INDEXES, MAX_DERIVED_INDEX_BYTES)

  private lru(key: string): LRUCache<string, CachedIndex> {
    const kind = derivedKind(key)
    return kind === 'i' ? this.intervals : kind === 's' ? this.searches : this.others
  }

  /** The entry of `key`, now the most recently used. */
  get(key: string): CachedIndex | undefined {
    return key === HOME_KEY ? this.home : this.lru(key).get(key)
  }

  set(key: string, entry: CachedIndex): void {
    if (key === HOME_KEY) this.home = entry
    else this.lru(key).set(key, entry)
  }

  /** Puts `next` in the place of `entry` (null: drops it), unless another entry has taken that place since. */
  replace(key: string, entry: CachedIndex, next: CachedIndex | null): void {
    if ((key === HOME_KEY ? this.home : this.lru(key).peek(key)) !== entry) return
    if (next) this.set(key, next)
    else if (key === HOME_KEY) this.home = undefined
    else this.lru(key).delete(key)
  }

  /** The filters kept (or being built), as indexKey writes them. */
  *keys(): Generator<string> {
    if (this.home) yield HOME_KEY
    yield* this.others.keys()
    yield* this.searches.keys()
    yield* this.intervals.keys()
  }
}

function lruOf(max: number, maxSize: number): LRUCache<string, CachedIndex> {
  return new LRUCache<string, CachedIndex>({
    max,
    maxSize,
    // One larger than the bound counts as the bound: it then pushes every other out, and is kept alone.
    sizeCalculation: (entry) => Math.min(entry.bytes, maxSize),
  })
}

/** Reads that run one after the other in this process: each line's next read starts when its last has ended. */
class Line {
  private last: Promise<unknown> = Promise.resolve()

  run<T>(read: () => Promise<T>): Promise<T> {
    const result = this.last.then(read)
    this.last = result.catch(() => undefined)
    return result
  }
}

/** The text index's reads of the searches (see above). */
const searchReads = new Line()

/**
 * The maps' indexes of one server process (one instance of the app). An index of an older data version is not read
 * again whole: it is updated from the change log, with the places written since (withChanges), unless the log cannot
 * tell (README.md, "The map's index after a write"). A search's or an interval's index is made again from its filter's.
 */
export class PlaceIndexes {
  private readonly cache = new PlaceIndexCache()

  /** The filters whose index is kept or being built, as `postType\ncategoryId\ntagId`. */
  keys(): string[] {
    return [...this.cache.keys()]
  }

  /**
   * The index of the public places of one filter (post type, category, tag) at data `version` (readDataVersion, read by the
   * caller before this): made on first use after any write (from the index of an older version, when there is one),
   * then shared by every request until the next write.
   */
  get(query: PlaceIndexQuery, version: number): Promise<PlaceIndex> {
    const key = indexKey(query)
    const cached = this.cache.get(key)
    // One made from a version at least as new is as good: the data it was read from is no older than the caller's.
    if (cached && cached.version >= version) return cached.index
    const index = query.published
      ? this.intervalIndex({ ...query, published: query.published }, version)
      : query.search
        ? this.searchIndex({ ...query, search: query.search }, version)
        : cached
          ? updated(query, cached)
          : readPlaceIndex(query)
    const entry: CachedIndex = { version, index, bytes: BYTES_PER_INDEX }
    this.cache.set(key, entry)
    entry.index.then(
      // An empty index is not kept: asking again costs the one query that found no places.
      (index) => this.cache.replace(key, entry, index.size === 0 ? null : { ...entry, bytes: BYTES_PER_INDEX + index.size * BYTES_PER_PLACE }),
      () => this.cache.replace(key, entry, null),
    )
    return entry.index
  }

  /** The index of the places of a time interval: one run of its filter's (and search's) order (rangeOf). */
  private async intervalIndex({ published, ...query }: PlaceIndexQuery & { published: Published }, version: number): Promise<PlaceIndex> {
    const base = await this.get(query, version)
    return rangeOf(base, ranksBetween(base, ...published))
  }

  /**
   * A search's index: the places of its filter's index (made first if need be) that the text index matches
   * (lib/places/query.ts, findIdsContaining). Within a category or tag, the places of the same search without them:
   * the text index is read once per search, whatever the filters it is combined with.
   */
  private async searchIndex(query: PlaceIndexQuery & { search: string }, version: number): Promise<PlaceIndex> {
    const { postType, categoryId, tagId, search } = query
    const base = await this.get({ postType, categoryId, tagId }, version)
    if (base.size === 0) return base
    const unfiltered = categoryId == null && tagId === undefined
    const matched = unfiltered ? await searchReads.run(() => findIdsContaining(search)) : (await this.get({ postType, categoryId: null, search }, version)).ids
    return subsetOf(base, matched)
  }
}

/**
 * Whole reads after a write the change log cannot tell (a large import, a category moved) take turns across the
 * instances, each waiting at most this long for the one before: N instances then do not all scan the database at
 * the moment they learn of the write (README, Deployment). Within a process they run one after the other, so that one
 * connection at most waits for the turn: the indexes a category move makes stale (the home map's and every category's
 * kept) would otherwise each hold one of the pool's while they wait.
 */
const REREAD_TURN_WAIT_MS = 10_000
const rereads = new Line()

/** The index of `query` made from `previous`, of an older version, and the changes since; read whole when it cannot be. */
async function updated(query: PlaceIndexQuery, previous: CachedIndex): Promise<PlaceIndex> {
  const index = await previous.index.catch(() => null)
  const changes = index && (await readPlaceChanges(query, previous.version))
  if (!index || !changes) return rereads.run(() => readPlaceIndex(query, { turnWaitMs: REREAD_TURN_WAIT_MS }))
  return changes.ids.size === 0 ? index : withChanges(index, changes.ids, changes.places)
}

// On globalThis: Next bundles the page and the route apart, and both must share one set of indexes.
const shared = globalThis as typeof globalThis & { placeIndexes?: PlaceIndexes }
const indexes = (shared.placeIndexes ??= new PlaceIndexes())

/** The filters whose index is kept or being built, as `postType\ncategoryId\ntagId`. */
export function keptIndexKeys(): string[] {
  return indexes.keys()
}

/** The index of the public places of `query` at data `version`, as this process keeps it (PlaceIndexes.get). */
export function getPlaceIndex(query: PlaceIndexQuery, version: number): Promise<PlaceIndex> {
  return indexes.get(query, version)
}
