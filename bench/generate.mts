#!/usr/bin/env node
// A deterministic set of N places in the import format of `places import` (docs/cli.md), streamed as it is made:
//
//   node --import tsx bench/generate.mts 100000 > places.geojson       (optional second argument: the seed, default 1)
//
// The same N and seed always give the same bytes. The mix is meant to look like a real site: ~90% published, the
// rest other statuses; ~5% without geometry; ~2% with geo_public false; 1–2 categories per post out of a tree of
// 52 in 3 levels; dates over 10 years; titles and addresses of 20–60 characters; places around real cities.
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { pathToFileURL } from 'node:url'
import { prng } from './prng.ts'

// [name, latitude, longitude, postcode prefix, country]
const CITIES: [name: string, latitude: number, longitude: number, postcode: string, country: string][] = [
  ['Paris', 48.8566, 2.3522, '750', 'France'],
  ['Lyon', 45.764, 4.8357, '690', 'France'],
  ['Marseille', 43.2965, 5.3698, '130', 'France'],
  ['Bordeaux', 44.8378, -0.5792, '330', 'France'],
  ['Berlin', 52.52, 13.405, '101', 'Germany'],
  ['Munich', 48.1351, 11.582, '803', 'Germany'],
  ['Hamburg', 53.5511, 9.9937, '203', 'Germany'],
  ['Madrid', 40.4168, -3.7038, '280', 'Spain'],
  ['Barcelona', 41.3874, 2.1686, '080', 'Spain'],
  ['Lisbon', 38.7223, -9.1393, '110', 'Portugal'],
  ['Rome', 41.9028, 12.4964, '001', 'Italy'],
  ['Milan', 45.4642, 9.19, '201', 'Italy'],
  ['Amsterdam', 52.3676, 4.9041, '101', 'Netherlands'],
  ['Brussels', 50.8503, 4.3517, '100', 'Belgium'],
  ['Vienna', 48.2082, 16.3738, '101', 'Austria'],
  ['Zurich', 47.3769, 8.5417, '800', 'Switzerland'],
  ['Copenhagen', 55.6761, 12.5683, '145', 'Denmark'],
  ['Stockholm', 59.3293, 18.0686, '111', 'Sweden'],
  ['London', 51.5072, -0.1276, 'EC1', 'United Kingdom'],
  ['Dublin', 53.3498, -6.2603, 'D02', 'Ireland'],
  ['New York', 40.7128, -74.006, '100', 'USA'],
  ['Montréal', 45.5019, -73.5674, 'H2X', 'Canada'],
  ['Mexico City', 19.4326, -99.1332, '060', 'Mexico'],
  ['São Paulo', -23.5558, -46.6396, '010', 'Brazil'],
  ['Buenos Aires', -34.6037, -58.3816, 'C10', 'Argentina'],
  ['Cape Town', -33.9249, 18.4241, '800', 'South Africa'],
  ['Nairobi', -1.2921, 36.8219, '001', 'Kenya'],
  ['Tokyo', 35.6762, 139.6503, '100', 'Japan'],
  ['Kyoto', 35.0116, 135.7681, '600', 'Japan'],
  ['Seoul', 37.5665, 126.978, '041', 'South Korea'],
  ['Sydney', -33.8688, 151.2093, '200', 'Australia'],
  ['Auckland', -36.8485, 174.7633, '101', 'New Zealand'],
]
const STREETS = [
  'Main Street',
  'Rue de la République',
  'Station Road',
  'Avenida Central',
  'Hauptstraße',
  'Via Roma',
  'Harbour Lane',
  'Church Street',
  'Market Square',
  'Boulevard Voltaire',
  'Calle Mayor',
  'Park Avenue',
  'Kingsway',
  'Rua Augusta',
  'Old Mill Road',
  'Riverside Walk',
  'Chemin des Vignes',
  'Bahnhofstraße',
  'High Street',
  'Quai Nord',
]
const ADJECTIVES = [
  'Old',
  'Hidden',
  'Little',
  'Grand',
  'Quiet',
  'Busy',
  'Historic',
  'Sunny',
  'Green',
  'Blue',
  'Secret',
  'Famous',
  'Tiny',
  'New',
  'Ancient',
  'Lively',
  'Charming',
  'Forgotten',
  'Royal',
  'Wild',
]
const NOUNS = [
  'café',
  'bakery',
  'market',
  'bridge',
  'garden',
  'museum',
  'bookshop',
  'viewpoint',
  'harbour',
  'chapel',
  'park',
  'square',
  'gallery',
  'brewery',
  'library',
  'theatre',
  'lighthouse',
  'fountain',
  'tower',
  'beach',
  'trail',
  'bistro',
  'courtyard',
  'station',
  'mural',
]
const WORDS = (
  'we stopped here on a long walk through the old town and the light was perfect for photos the staff ' +
  'were friendly and the coffee strong there is a small terrace at the back worth a visit in spring when the trees ' +
  'are in bloom opening hours vary so check before you go families welcome dogs allowed outside'
).split(' ')

// The category tree: 4 roots × 3 children × 3 grandchildren = 52 categories; posts name paths at any level.
const TREE: Record<string, Record<string, string[]>> = {
  Nature: { Parks: ['City parks', 'National parks', 'Gardens'], Water: ['Beaches', 'Lakes', 'Rivers'], Mountains: ['Hikes', 'Viewpoints', 'Caves'] },
  Culture: {
    Museums: ['Art', 'History', 'Science'],
    'Performing arts': ['Theatres', 'Concert halls', 'Cinemas'],
    Heritage: ['Churches', 'Castles', 'Monuments'],
  },
  'Food & Drink': {
    Restaurants: ['Bistros', 'Street food', 'Fine dining'],
    Cafés: ['Coffee', 'Tea rooms', 'Bakeries'],
    Bars: ['Pubs', 'Wine bars', 'Breweries'],
  },
  Travel: { Transport: ['Stations', 'Ports', 'Airports'], Stays: ['Hotels', 'Campsites', 'Hostels'], Shopping: ['Markets', 'Bookshops', 'Crafts'] },
}
export const CATEGORY_PATHS = Object.entries(TREE).flatMap(([root, children]) => [
  root,
  ...Object.entries(children).flatMap(([child, leaves]) => [`${root} > ${child}`, ...leaves.map((leaf) => `${root} > ${child} > ${leaf}`)]),
])

const OTHER_STATUSES = ['draft', 'pending', 'private', 'future', 'trash']
const DATE_FROM = Date.UTC(2016, 0, 1)
const DATE_SPAN = Date.UTC(2026, 0, 1) - DATE_FROM

/** Cuts or pads `text` to 20–60 characters, as titles and addresses of real sites mostly are. */
function fit(text: string, pad: string): string {
  let out = text
  while (out.length < 20) out = `${out} ${pad}`
  return out.length <= 60 ? out : out.slice(0, 60).replace(/\s+\S*$/, '')
}

/**
 * Feature number `i` (0-based) of the set, drawn from `random`. Also says whether the public routes show it:
 * published, post type `post`, with a geometry and geo_public true.
 */
function makeFeature(random: () => number) {
  // Every list picked from is a non-empty constant.
  const pick = <T,>(list: T[]): T => list[Math.floor(random() * list.length)]!
  const city = pick(CITIES)
  const [cityName, lat, lng, postcode, country] = city
  const r = random()
  const status = r < 0.9 ? 'publish' : OTHER_STATUSES[Math.floor(((r - 0.9) / 0.1) * OTHER_STATUSES.length)]!
  const type = random() < 0.97 ? 'post' : 'event'
  const hasGeometry = random() >= 0.05
  const geoPublic = random() >= 0.02
  // Within ~20 km of the city centre, to 6 decimals (about 10 cm), as phones and maps give them.
  const round = (x: number) => Math.round(x * 1e6) / 1e6
  const geometry = hasGeometry ? { type: 'Point' as const, coordinates: [round(lng + (random() - 0.5) * 0.4), round(lat + (random() - 0.5) * 0.3)] } : null
  const noun = pick(NOUNS)
  const title = fit(`The ${pick(ADJECTIVES).toLowerCase()} ${noun} ${pick(['of', 'near', 'in', 'by'])} ${cityName}`, country)
  const address = fit(
    `${1 + Math.floor(random() * 240)} ${pick(STREETS)}, ${postcode}${String(Math.floor(random() * 100)).padStart(2, '0')} ${cityName}`,
    country,
  )
  const words = Array.from({ length: 20 + Math.floor(random() * 60) }, () => pick(WORDS)).join(' ')
  const content = `<p>${noun.charAt(0).toUpperCase()}${noun.slice(1)} in ${cityName}: ${words}.</p>`
  const categories = [pick(CATEGORY_PATHS)]
  if (random() < 0.5) {
    const second = pick(CATEGORY_PATHS)
    if (second !== categories[0]) categories.push(second)
  }
  const date = new Date(DATE_FROM + Math.floor((random() * DATE_SPAN) / 1000) * 1000).toISOString().replace('.000Z', 'Z')
  const properties: { title: string; content: string; address: string; date: string; categories: string[]; type: string; status: string; geo_public?: false } =
    {
      title,
      content,
      address,
      date,
      categories,
      type,
      status,
    }
  if (!geoPublic) properties.geo_public = false
  return {
    feature: { type: 'Feature', geometry, properties },
    // Every date is before 2026: a `future` post's has passed, and the import publishes it, as wp_insert_post does.
    isPublic: (status === 'publish' || status === 'future') && type === 'post' && hasGeometry && geoPublic,
  }
}

/** The N features of a seed, in order, each with whether the public routes show it. */
export function* makeFeatures(n: number, seed = 1) {
  const random = prng(seed)
  for (let i = 0; i < n; i++) yield makeFeature(random)
}

/**
 * Writes N features as one FeatureCollection to `out` (a writable stream), waiting for it to drain; never holds more
 * than a batch of features in memory. Returns counts and the 0-based indexes of the features the public routes show
 * (`places import` prints ids in input order, so these indexes find their ids).
 */
export async function writePlaces(out: Writable, n: number, seed = 1) {
  const stats = { places: n, seed, publish: 0, withoutGeometry: 0, geoPrivate: 0, publicIndexes: [] as number[] }
  let chunk = '{"type":"FeatureCollection","features":['
  let i = 0
  for (const { feature, isPublic } of makeFeatures(n, seed)) {
    if (feature.properties.status === 'publish') stats.publish++
    if (feature.geometry === null) stats.withoutGeometry++
    if (feature.properties.geo_public === false) stats.geoPrivate++
    if (isPublic) stats.publicIndexes.push(i)
    chunk += `${i === 0 ? '\n' : ',\n'}${JSON.stringify(feature)}`
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain')
      chunk = ''
    }
    i++
  }
  if (!out.write(`${chunk}\n]}\n`)) await once(out, 'drain')
  return stats
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = Number(process.argv[2] ?? 1000)
  const seed = Number(process.argv[3] ?? 1)
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(seed)) {
    console.error('Usage: node --import tsx bench/generate.mts N [SEED] > places.geojson')
    process.exit(2)
  }
  await writePlaces(process.stdout, n, seed)
}
