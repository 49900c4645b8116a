import assert from 'node:assert/strict'
import { test } from 'node:test'
import { zipSync } from 'fflate'
import { detectDelimiter, parseDecimal, readCsv } from './csv'
import { detectFormat } from './detect'
import { MAX_XML_BYTES, readGpx, readKml, readKmz } from './xml-formats'

const bytes = (text: string) => Buffer.from(text, 'utf8')

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
    bytes('\uFEFFName;LAT;Lng;Address;Category;Phone\n"A; one";48,85;2,35;"Rue 1";Food > Cafés|Paris;1\n\n"B\nsecond line";51,5;-0,1;;;\nC;;;Somewhere;;\n'),
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
    properties: { title: 'A; one', address: 'Rue 1', categories: ['Food > Cafés', 'Paris'] },
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

test('readKml: placemarks with points, folders as the category path, lines skipped and said', () => {
  const read = readKml(bytes(MY_MAPS))
  assert.deepEqual(read.refused, [])
  assert.deepEqual(read.skipped, ['placemark 2 (“Route”): a line, not a point'])
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

test("readKml: malformed XML is refused with the parser's reason; no Placemark is refused", () => {
  assert.match(readKml(bytes('<kml><Document><Placemark></Document></kml>')).refused[0]!, /^the file is not well-formed XML: /)
  assert.deepEqual(readKml(bytes('<kml><Document/></kml>')).refused, ['the KML file holds no Placemark'])
})

test('readKml: an entity is not expanded from anywhere outside the file', () => {
  const read = readKml(bytes('<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY x SYSTEM "file:///etc/passwd">]><kml><Placemark><name>&x;</name></Placemark></kml>'))
  assert.deepEqual(read.entries, [])
  assert.match(read.refused[0]!, /^the file is not well-formed XML: .*entity not found:&x;/)
})

test('readKmz: doc.kml of the zip, else its first .kml', () => {
  const kmz = zipSync({ 'files/photo.jpg': new Uint8Array([1, 2]), 'doc.kml': bytes(MY_MAPS) })
  assert.equal(readKmz(kmz).entries.length, 3)
  assert.equal(readKmz(zipSync({ 'other.KML': bytes(MY_MAPS) })).entries.length, 3)
  assert.deepEqual(readKmz(zipSync({ 'a.txt': bytes('x') })).refused, ['the KMZ (zip) holds no .kml file'])
  assert.match(readKmz(bytes('PK\u0003\u0004 broken')).refused[0]!, /^the file is not a readable KMZ/)
  // A KML that would unpack past the bound is refused by its declared size, before it is inflated.
  const bomb = zipSync({ 'doc.kml': new Uint8Array(MAX_XML_BYTES + 1) })
  assert.ok(bomb.length < 1024 * 1024, 'the zip itself is small')
  assert.match(readKmz(bomb).refused[0]!, /^doc\.kml in the KMZ unpacks to more than 64 MB: split it, or convert it to GeoJSON/)
})

test('readGpx: waypoints, in their order; tracks and routes skipped and said; the declared encoding', () => {
  const gpx = Buffer.from(
    `<?xml version="1.0" encoding="ISO-8859-1"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
<wpt lat="45.1" lon="6.2"><ele>2000</ele><time>2024-05-01T12:00:00Z</time><name>Col d'Is\xe8re</name><desc>High</desc></wpt>
<wpt lat="-33.9" lon="151.2"><name>Sydney</name><cmt>comment only</cmt></wpt>
<rte><name>Plan</name><rtept lat="1" lon="2"/><rtept lat="1" lon="3"/></rte>
<trk><name>Walk</name><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk></gpx>`,
    'latin1',
  )
  const read = readGpx(gpx)
  assert.deepEqual(read.skipped.sort(), ['a route (“Plan”): a line, not a waypoint', 'a track (“Walk”): a line, not a waypoint'])
  assert.deepEqual(
    read.entries.map((entry) => [entry.label, entry.feature.geometry?.coordinates, entry.feature.properties]),
    [
      ["waypoint 1 (“Col d'Isère”)", [6.2, 45.1, 2000], { title: "Col d'Isère", content: 'High', date: '2024-05-01T12:00:00Z' }],
      ['waypoint 2 (“Sydney”)', [151.2, -33.9], { title: 'Sydney', content: 'comment only' }],
    ],
  )
})
