import assert from 'node:assert/strict'
import { test } from 'node:test'
import { zipSync } from 'fflate'
import { detectDelimiter, parseDecimal, readCsv } from './csv'
import { detectFormat } from './detect'
import type { ReadEntry } from './types'
import { MAX_UNZIP_RATIO, MAX_UNZIPPED_BYTES, readGpx, readKml, UnreadableXml, unzipKml, type XmlItem } from './xml-formats'

const bytes = (text: string) => Buffer.from(text, 'utf8')

/** Everything a KML or GPX reader finds, as the import's first pass reads it: a refusal ends the file. */
async function readAll(items: AsyncIterable<XmlItem>): Promise<{ entries: ReadEntry[]; skipped: string[]; lines: string[]; refused: string[] }> {
  const read = { entries: [] as ReadEntry[], skipped: [] as string[], lines: [] as string[], refused: [] as string[] }
  try {
    for await (const item of items) {
      if ('entry' in item) read.entries.push(item.entry)
      else if ('line' in item) read.lines.push(item.line)
      else read.skipped.push(item.skipped)
    }
  } catch (error) {
    if (!(error instanceof UnreadableXml)) throw error
    read.refused.push(error.message)
  }
  return read
}

const kml = (text: string) => readAll(readKml([bytes(text)]))

/** A file as a stream may cut it: a byte at a time (a declaration, a character, a CRLF in two). */
const byteByByte = (buffer: Uint8Array) => Array.from(buffer, (byte) => Uint8Array.of(byte))

test('detectFormat: by content, whatever the name', () => {
  assert.equal(detectFormat(bytes('\uFEFF  {"type": "FeatureCollection"')), 'geojson')
  assert.equal(detectFormat(bytes('<?xml version="1.0"?>\n<!-- Google -->\n<kml xmlns="http://www.opengis.net/kml/2.2">')), 'kml')
  assert.equal(detectFormat(bytes('<?xml version="1.0"?><kml:kml xmlns:kml="http://www.opengis.net/kml/2.2">')), 'kml')
  assert.equal(detectFormat(bytes('<gpx version="1.1">')), 'gpx')
  assert.equal(detectFormat(bytes('<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/">')), 'wxr')
  assert.deepEqual(detectFormat(bytes('<svg>')), { unknownXml: 'svg' })
  assert.equal(detectFormat(Buffer.from(zipSync({ 'doc.kml': bytes('<kml/>') }))), 'kmz')
  assert.equal(detectFormat(bytes('name,lat,lon\n')), 'csv')
})

test('detectDelimiter: the most frequent of , ; tab | in the header, outside quotes', () => {
  assert.equal(detectDelimiter('name,lat,lon\n'), ',')
  assert.equal(detectDelimiter('name;lat;lon\r\na,b;c\n'), ';')
  assert.equal(detectDelimiter('"a,b,c"\tlat\tlon'), '\t')
  assert.equal(detectDelimiter('name|lat|lon'), '|')
  assert.equal(detectDelimiter('title'), ',')
})

test('parseDecimal: a point or a decimal comma, nothing else', () => {
  assert.equal(parseDecimal('48.8584'), 48.8584)
  assert.equal(parseDecimal(' -0,5 '), -0.5)
  assert.equal(parseDecimal('+2'), 2)
  assert.equal(parseDecimal('1,234,5'), undefined)
  assert.equal(parseDecimal('48°51′N'), undefined)
  assert.equal(parseDecimal(''), undefined)
  assert.equal(parseDecimal('1e5'), undefined)
})

test('readCsv: header names found, semicolons and decimal commas, quoted lines, line numbers of where a row starts', () => {
  const read = readCsv(
    bytes(
      '\uFEFFName;LAT;Lng;Address;Category;Keywords;Phone\n"A; one";48,85;2,35;"Rue 1";Food > Cafés|Paris;rainy day, , Food ;1\n\n"B\nsecond line";51,5;-0,1;;;;\nC;;;Somewhere;;;\n',
    ),
  )
  assert.deepEqual(read.refused, [])
  assert.deepEqual(read.notes, ['columns not read: Phone'])
  assert.deepEqual(
    read.entries.map((entry) => entry.label),
    ['line 2', 'line 4', 'line 6'],
  )
  assert.deepEqual(read.entries[0]!.feature, {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [2.35, 48.85] },
    properties: { title: 'A; one', address: 'Rue 1', categories: ['Food > Cafés', 'Paris'], tags: ['rainy day', ' Food '] },
  })
  assert.equal(read.entries[1]!.feature.properties.title, 'B\nsecond line')
  assert.deepEqual(read.entries[2]!.feature.geometry, null)
})

test('readCsv: refuses what it cannot read, naming the line', () => {
  assert.deepEqual(readCsv(bytes('title,lat,lon\nA,abc,2\nB,1,\nC,95,2\nD,1,2\n')).refused, [
    'line 2: latitude: "abc" is not a decimal number',
    'line 3: longitude: "" is not a decimal number (give both, or neither for a post without a location)',
    'line 4: latitude 95 is not from -90 to 90',
  ])
  assert.match(readCsv(bytes('title,address\nA,b\n')).refused[0]!, /^line 1: no latitude and longitude columns in the header \(title, address\)/)
  assert.match(readCsv(bytes('lat,lon\n1,2\n')).refused[0]!, /^line 1: no title column/)
  assert.match(readCsv(bytes('title,lat,lon\n"A,1,2\n')).refused[0]!, /^line 2: the file is not valid CSV: Quote Not Closed/)
})

test("readCsv: a text cell's formula escape is taken off, once; numbers are read as they are", () => {
  const read = readCsv(bytes(`title,lat,lon,content,categories\n"'=HYPERLINK(""x"")",-33.8,-70.5,'''+1,'-Minus|Plain\n'plain,,,=raw,\n`))
  assert.deepEqual(read.refused, [])
  assert.deepEqual(
    read.entries.map(({ feature }) => [feature.geometry?.coordinates, feature.properties.title, feature.properties.content, feature.properties.categories]),
    [
      [[-70.5, -33.8], '=HYPERLINK("x")', "''+1", ['-Minus', 'Plain']],
      [undefined, "'plain", '=raw', []],
    ],
  )
})

test('readCsv: Windows-1252, as Excel saves on Windows', () => {
  const read = readCsv(Buffer.from('title;lat;lon\nCaf\xe9;1;2\n', 'latin1'))
  assert.equal(read.entries[0]!.feature.properties.title, 'Café')
})

const MY_MAPS = `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Trip</name>
<Folder><name>Food</name><Folder><name>Cafés</name>
<Placemark><name>Café &amp; bar</name><description><![CDATA[<p>Good <b>coffee</b></p>]]></description><address>1 Rue X</address>
<TimeStamp><when>2024-05-01T12:00:00Z</when></TimeStamp><Point><coordinates>2.35,48.85,0</coordinates></Point></Placemark>
</Folder>
<Placemark><name>Route</name><LineString><coordinates>2.35,48.85 2.36,48.86</coordinates></LineString></Placemark>
</Folder>
<Placemark><name>Loose</name><description>&lt;i&gt;plain&lt;/i&gt;</description><TimeStamp><when>2024</when></TimeStamp><Point><coordinates>-0.1,51.5</coordinates></Point></Placemark>
<Placemark><name>Nowhere</name></Placemark>
</Document></kml>`

test('readKml: placemarks with points, folders as the category path, lines named as lines', async () => {
  const read = await kml(MY_MAPS)
  assert.deepEqual(read.refused, [])
  assert.deepEqual(read.skipped, [])
  assert.deepEqual(read.lines, ['placemark 2 (“Route”)'])
  assert.deepEqual(
    read.entries.map((entry) => entry.label),
    ['placemark 1 (“Café & bar”)', 'placemark 3 (“Loose”)', 'placemark 4 (“Nowhere”)'],
  )
  assert.deepEqual(read.entries[0]!.feature, {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [2.35, 48.85, 0] },
    properties: { title: 'Café & bar', content: '<p>Good <b>coffee</b></p>', address: '1 Rue X', categories: ['Food > Cafés'], date: '2024-05-01T12:00:00Z' },
  })
  // A year alone is no day: no date rather than a refused file.
  assert.deepEqual(read.entries[1]!.feature.properties, { title: 'Loose', content: '<i>plain</i>', address: '', categories: [] })
  assert.equal(read.entries[2]!.feature.geometry, null)
})

test('readKml: read a byte at a time, the same; line ends read as XML reads them, a written carriage return kept', async () => {
  assert.deepEqual(await readAll(readKml(byteByByte(bytes(MY_MAPS)))), await kml(MY_MAPS))
  const crlf = bytes('<kml><Placemark><name>A</name><description>one\r\ntwo&#13;\nthree\rfour</description></Placemark></kml>')
  for (const chunks of [[crlf], byteByByte(crlf)]) {
    assert.equal((await readAll(readKml(chunks))).entries[0]!.feature.properties.content, 'one\ntwo\r\nthree\nfour')
  }
})

test('readKml: geometries as togeojson read them; image overlays and network links skipped and said', async () => {
  const placemark = (name: string, inner: string) => `<Placemark><name>${name}</name>${inner}</Placemark>`
  const read = await kml(
    `<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>${[
      placemark('one point in a MultiGeometry', '<MultiGeometry><Point><coordinates> 1, 2 </coordinates></Point></MultiGeometry>'),
      placemark('two points', '<MultiGeometry><Point><coordinates>1,2</coordinates></Point><Point><coordinates>3,4</coordinates></Point></MultiGeometry>'),
      placemark('an area', '<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1</coordinates></LinearRing></outerBoundaryIs></Polygon>'),
      placemark('a line of one position', '<LineString><coordinates>5,6</coordinates></LineString>'),
      placemark('a track of one position', '<gx:Track><when>2024-01-01</when><gx:coord>7 8 9</gx:coord></gx:Track>'),
      placemark('a track', '<gx:Track><gx:coord>7 8 9</gx:coord><gx:coord>7 9 9</gx:coord></gx:Track>'),
      '<GroundOverlay><name>scan</name><Icon><href>scan.png</href></Icon></GroundOverlay>',
      '<NetworkLink><name>layer</name><Link><href>layer.kml</href></Link></NetworkLink>',
      placemark(
        'spans and schema data',
        '<TimeSpan><begin>2023-04-05</begin></TimeSpan><ExtendedData><SchemaData><SimpleData name="slug">s</SimpleData></SchemaData><Data name="post_type"><value>page</value></Data></ExtendedData>',
      ),
    ].join('')}</Document></kml>`,
  )
  assert.deepEqual(read.skipped, [
    'placemark 2 (“two points”): several shapes, not a point',
    'placemark 3 (“an area”): an area, not a point',
    'placemark 7 (“scan”): an image laid on the map, not a point',
    'placemark 8 (“layer”): a link to another KML file, not a point',
  ])
  assert.deepEqual(read.lines, ['placemark 6 (“a track”)'])
  assert.deepEqual(
    read.entries.map(({ label, feature }) => [label, feature.geometry?.coordinates ?? null]),
    [
      ['placemark 1 (“one point in a MultiGeometry”)', [1, 2]],
      ['placemark 4 (“a line of one position”)', null],
      ['placemark 5 (“a track of one position”)', [7, 8, 9]],
      ['placemark 9 (“spans and schema data”)', null],
    ],
  )
  assert.deepEqual(read.entries[3]!.feature.properties, {
    title: 'spans and schema data',
    content: '',
    address: '',
    categories: [],
    date: '2023-04-05',
    slug: 's',
    type: 'page',
  })
})

test('readKml: an element nested too deep, or of too many attributes, refuses the file before the parser holds it', async () => {
  assert.deepEqual((await kml(`<kml>${'<a>'.repeat(300)}${'</a>'.repeat(300)}</kml>`)).refused, [
    'the file nests elements more than 256 deep, as no KML or GPX does (line 1)',
  ])
  const attributes = Array.from({ length: 300 }, (_, i) => `a${i}=""`).join(' ')
  assert.deepEqual((await kml(`<kml><Placemark ${attributes}/></kml>`)).refused, [
    'the file has an element of more than 256 attributes, as no KML or GPX does (line 1)',
  ])
})

test("readKml: one element's text is bounded too, in chunks as a stream brings it", async () => {
  const chunk = 'x'.repeat(1024 * 1024)
  const file = [
    bytes('<kml><Placemark><name>Long</name><description>'),
    ...Array.from({ length: 17 }, () => bytes(chunk)),
    bytes('</description></Placemark></kml>'),
  ]
  const read = await readAll(readKml(file))
  assert.deepEqual([read.entries.length, read.refused], [0, ['the file has an element of more than 16 M characters of text (line 1)']])
  const fits = [
    bytes('<kml><Placemark><name>Long</name><description>'),
    ...Array.from({ length: 15 }, () => bytes(chunk)),
    bytes('</description></Placemark></kml>'),
  ]
  assert.equal((await readAll(readKml(fits))).entries.length, 1)
})

test("readKml: malformed XML is refused with the parser's reason; no Placemark is refused", async () => {
  assert.match((await kml('<kml><Document><Placemark></Document></kml>')).refused[0]!, /^the file is not well-formed XML: /)
  assert.deepEqual((await kml('<kml><Document/></kml>')).refused, ['the KML file holds no Placemark'])
})

test('readKml: an entity is not expanded from anywhere outside the file', async () => {
  const read = await kml('<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml><Placemark><name>&x;</name></Placemark></kml>')
  assert.deepEqual(read.entries, [])
  assert.match(read.refused[0]!, /^the file is not well-formed XML: Invalid character entity/)
})

const kmz = (zip: Uint8Array) => readAll(readKml(unzipKml(zip)))

test('readKmz: doc.kml of the zip, else its first .kml', async () => {
  const zip = zipSync({ 'files/photo.jpg': new Uint8Array([1, 2]), 'doc.kml': bytes(MY_MAPS) })
  assert.equal((await kmz(zip)).entries.length, 3)
  assert.equal((await kmz(zipSync({ 'other.KML': bytes(MY_MAPS) }))).entries.length, 3)
  assert.deepEqual((await kmz(zipSync({ 'a.txt': bytes('x') }))).refused, ['the KMZ (zip) holds no .kml file'])
  assert.match((await kmz(bytes('PK\u0003\u0004 broken'))).refused[0]!, /^the file is not a readable KMZ/)
  // A KML that would unpack past the bound is refused by its declared size, before it is inflated.
  const bomb = zipSync({ 'doc.kml': new Uint8Array(MAX_UNZIPPED_BYTES + 1) })
  assert.ok(bomb.length < 1024 * 1024, 'the zip itself is small')
  assert.match((await kmz(bomb)).refused[0]!, /^doc\.kml in the KMZ unpacks to more than 64 MB: unzip it and import its KML, which is read as a stream/)
})

test('readKmz: a KML that unpacks past the ratio is refused as it inflates, whatever its header declares', async () => {
  const kml = `<kml><Document>${'<Placemark/>'.repeat(400_000)}</Document></kml>`
  const bomb = zipSync({ 'doc.kml': bytes(kml) }, { level: 9 })
  assert.ok(bomb.length * MAX_UNZIP_RATIO < kml.length, 'the zip unpacks past the ratio')
  // Headers that say the KML is small: both the local one (uncompressed size at 22) and the central directory's (at 24).
  const liar = Buffer.from(bomb)
  liar.writeUInt32LE(1000, 22)
  liar.writeUInt32LE(1000, liar.indexOf(Buffer.from('PK\u0001\u0002', 'latin1')) + 24)
  for (const zip of [bomb, liar]) {
    const read = await kmz(zip)
    assert.equal(read.refused.length, 1)
    assert.match(
      read.refused[0]!,
      /^doc\.kml in the KMZ unpacks to more than 100 times its compressed size \([\d,]+ bytes\), as a zip bomb does and no map: if you trust the file, unzip it/,
    )
    // Inflating stopped a step past the bound, not at the end of the file.
    assert.ok(read.entries.length * '<Placemark/>'.length < MAX_UNZIP_RATIO * bomb.length + 1024 * 1024, `${read.entries.length} placemarks read`)
  }
})

test('readGpx: waypoints, in their order, desc as text; tracks and routes named as lines; the declared encoding', async () => {
  const gpx = Buffer.from(
    `<?xml version="1.0" encoding="ISO-8859-1"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
<wpt lat="45.1" lon="6.2"><ele>2000</ele><time>2024-05-01T12:00:00Z</time><name>Col d'Is\xe8re</name><desc>High &lt; 3000 &amp; cold</desc></wpt>
<wpt lat="-33.9" lon="151.2"><name>Sydney</name><cmt>comment only</cmt></wpt>
<rte><name>Plan</name><rtept lat="1" lon="2"/><rtept lat="1" lon="3"/></rte>
<trk><name>Walk</name><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk></gpx>`,
    'latin1',
  )
  const read = await readAll(readGpx([gpx]))
  assert.deepEqual(read.skipped, [])
  assert.deepEqual(read.lines, ['a route (“Plan”)', 'a track (“Walk”)'])
  assert.deepEqual(
    read.entries.map((entry) => [entry.label, entry.feature.geometry?.coordinates, entry.feature.properties]),
    [
      ["waypoint 1 (“Col d'Isère”)", [6.2, 45.1, 2000], { title: "Col d'Isère", content: '<p>High &lt; 3000 &amp; cold</p>', date: '2024-05-01T12:00:00Z' }],
      ['waypoint 2 (“Sydney”)', [151.2, -33.9], { title: 'Sydney', content: '<p>comment only</p>' }],
    ],
  )
})

test('readCsv with options: columns named, a delimiter given, the decimal mark found or given, and how the file was read', () => {
  const csv = (text: string) => new TextEncoder().encode(text)
  const german = csv('Titel;Breitengrad;Längengrad;Name\nDom;50,94;6,95;Kathedrale\n')
  const read = readCsv(german, { columns: { title: 'titel', latitude: 'Breitengrad', longitude: 'Längengrad' } })
  assert.deepEqual(read.refused, [])
  assert.deepEqual(read.entries[0]!.feature.geometry, { type: 'Point', coordinates: [6.95, 50.94] })
  assert.equal(read.entries[0]!.feature.properties.title, 'Dom', 'the column given, not the one called name')
  assert.deepEqual(read.layout, {
    header: ['Titel', 'Breitengrad', 'Längengrad', 'Name'],
    delimiter: ';',
    decimalComma: true,
    columns: { latitude: 'Breitengrad', longitude: 'Längengrad', title: 'Titel' },
  })
  assert.deepEqual(readCsv(german).layout?.columns, { title: 'Name' }, 'found by name')
  const point = readCsv(german, { columns: { title: 'Titel', latitude: 'Breitengrad', longitude: 'Längengrad' }, decimalComma: false })
  assert.deepEqual(point.refused, [
    'line 2: latitude: "50,94" is not a decimal number with a decimal point; longitude: "6,95" is not a decimal number with a decimal point',
  ])
  // A semicolon file read with the comma its header has once: one column, named "a;b,c".
  assert.deepEqual(readCsv(csv('title;lat,lon\nA;1,2\n'), { delimiter: ',' }).layout?.header, ['title;lat', 'lon'])
  assert.equal(readCsv(csv('title,lat,lon\nA,1.5,2\n')).layout?.decimalComma, false)
})
