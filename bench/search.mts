// The public search at scale (issue 15, "Search at scale"): GET /places/v1/geojson?search=… for a word, a prefix and
// a phrase of the generated places' titles and addresses (bench/generate.mts), alone, with a bbox, with a category,
// and with both, each query once and one at a time: no answer is in the answers' cache, and each text is one the
// server has not searched for before (the first of its four queries reads the text index; the others take their
// places from what that one found, lib/places/map-index/cache.ts). Run by scripts/bench.mts, after the server has
// answered the map's first view (the index of every place, which a search takes its places from).

import { percentile, round2 } from './stats.mts'

/** What a visitor types: whole words, the start of one, and a phrase, of the generated titles and addresses. */
const TEXTS = {
  word: ['lighthouse', 'bakery', 'Voltaire', 'Lisbon', 'fountain', 'Hauptstraße', 'museum', 'Berlin', 'chapel', 'Kingsway'],
  prefix: ['light', 'bake', 'Volt', 'Lisb', 'fount', 'Haupt', 'muse', 'Berl', 'chap', 'Kings'],
  phrase: [
    'Boulevard Voltaire',
    'tower by',
    'old mill',
    'Via Roma',
    'quiet garden',
    'Market Square',
    'hidden café',
    'Rue Augusta',
    'blue bridge',
    'Station Road',
  ],
}
export type SearchKind = keyof typeof TEXTS

/** Around Paris: one of the generated cities. */
const BBOX = '2.0,48.6,2.7,49.1'

/** One query and its time: a kind's slowest; the slowest of the first searches after the data changed (timeSearches). */
export type TimedQuery = { query: string; ms: number }
export type SearchTimes = { kind: SearchKind; samples: number; p50Ms: number; p99Ms: number; slowest: TimedQuery }

/** The targets at 1,000,000 places: p50 under 20 ms and p99 under 100 ms, for each kind of text. */
export const SEARCH_TARGETS = { p50Ms: 20, p99Ms: 100 }

/** Asks for `query`; resolves with the milliseconds until the whole answer is in. */
async function timed(baseUrl: string, query: string): Promise<number> {
  const url = `${baseUrl}/places/v1/geojson?${query}`
  const started = performance.now()
  const response = await fetch(url)
  await response.arrayBuffer()
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return performance.now() - started
}

/**
 * Times every query of each kind once, one at a time, within the first two of `categories` (two top-level categories'
 * indexes of 1,000,000 places fit in the indexes' cache together, four do not: README, "Parameters for maps").
 */
export async function timeSearches(baseUrl: string, allCategories: number[]): Promise<{ first: TimedQuery; kinds: SearchTimes[] }> {
  const categories = allCategories.slice(0, 2)
  // The map's index of each category first, as a visitor's map of that category builds it once per change of the
  // data (lib/places/map-index): a search within a category takes its places from it, and is timed alone.
  for (const category of categories) await (await fetch(`${baseUrl}/places/v1/geojson?category=${category}&cluster=true&zoom=2`)).arrayBuffer()
  // The first search of each index after the data changed also makes what a search looks up in it (subsetOf's
  // lookups, a pass over its places): timed apart, as the first request after a write is, with a text of none below.
  let first: TimedQuery = { query: '', ms: 0 }
  for (const query of ['search=harbour', ...categories.map((category) => `search=harbour&category=${category}`)]) {
    const ms = await timed(baseUrl, query)
    if (ms > first.ms) first = { query, ms: round2(ms) }
  }
  const results: SearchTimes[] = []
  for (const [kind, texts] of Object.entries(TEXTS) as [SearchKind, string[]][]) {
    const times: number[] = []
    let slowest: TimedQuery = { query: '', ms: 0 }
    for (const [i, text] of texts.entries()) {
      const category = categories[i % categories.length]
      const search = `search=${encodeURIComponent(text)}`
      for (const query of [search, `${search}&bbox=${BBOX}`, `${search}&category=${category}`, `${search}&category=${category}&bbox=${BBOX}`]) {
        const ms = await timed(baseUrl, query)
        times.push(ms)
        if (ms > slowest.ms) slowest = { query, ms: round2(ms) }
      }
    }
    results.push({ kind, samples: times.length, p50Ms: round2(percentile(times, 0.5)), p99Ms: round2(percentile(times, 0.99)), slowest })
  }
  return { first, kinds: results }
}

/** Each kind's figures beside the targets (which are for 1,000,000 places), PASS or FAIL. */
export function searchLines(places: number, { first, kinds }: { first: TimedQuery; kinds: SearchTimes[] }): string[] {
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL')
  return [
    `  the first search of each index after the data changed: at most ${first.ms} ms (${first.query})`,
    ...kinds.map(({ kind, samples, p50Ms, p99Ms, slowest }) => {
      const figures = `search, ${kind.padEnd(6)} (${samples} queries): p50 ${p50Ms} ms, p99 ${p99Ms} ms (slowest: ${slowest.query})`
      if (places !== 1_000_000) return `  ${figures} (the targets are for 1,000,000 places)`
      return `  ${figures}; target p50 < ${SEARCH_TARGETS.p50Ms} ms ${verdict(p50Ms < SEARCH_TARGETS.p50Ms)}, p99 < ${SEARCH_TARGETS.p99Ms} ms ${verdict(p99Ms < SEARCH_TARGETS.p99Ms)}`
    }),
  ]
}
