import 'server-only'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { Unzip, UnzipInflate, unzipSync } from 'fflate'
import sax from 'sax'
import { htmlFromText } from '../../content/text-html'
import { TrackBuilder, type Track } from '../../trips/track'
import type { ReadEntry } from './types'

// KML and GPX are read as streams: sax meets the file an element at a time, and a reader keeps only the placemark or
// waypoint it is in, so a file of any size takes the memory of its largest placemark. What the readers take from each
// is what togeojson took from a whole DOM before (the same first-found elements, the same geometry rules).

/** An item of a KML or GPX file as it is read: a place, or one that is none (listed as skipped, not imported). */
/** What a reader meets: a place, something skipped (with why), or a line, kept by the import as a trip's track. */
export type XmlItem = { entry: ReadEntry } | { skipped: string } | { line: string }

/** Why a KML, KMZ or GPX file is refused whole: it is not well-formed, holds no place, or unpacks past a bound. */
export class UnreadableXml extends Error {}

/**
 * What a KMZ's KML may unpack to: MAX_UNZIPPED_BYTES, and MAX_UNZIP_RATIO times its compressed size (a real map
 * compresses far less; a zip bomb far more). A plain KML has no bound, being what the operator sees; a KMZ's is
 * hidden in a file that may be a thousand times smaller. Inflating stops as soon as either is passed.
 */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024
export const MAX_UNZIP_RATIO = 100

/** What to do with a KMZ past a bound, once its KML is trusted. */
const UNZIP_IT = 'unzip it and import its KML, which is read as a stream, whatever its size'

// No KML or GPX nests elements deeper or gives one more attributes; sax holds every open element, so a file past
// these would make it hold what the file says rather than a placemark.
const MAX_DEPTH = 256
const MAX_ATTRIBUTES = 256
/** The text gathered of one element: a place's description may be long, but one element is not a whole file. */
const MAX_TEXT_CHARS = 16 * 1024 * 1024

/** A KML, KMZ or GPX file's items, read anew on each call; a KMZ's zip is read whole, its KML unpacked a step at a time. */
export async function* readXmlFile(file: string, format: 'kml' | 'kmz' | 'gpx'): AsyncGenerator<XmlItem> {
  if (format === 'gpx') yield* readGpx(createReadStream(file))
  else yield* readKml(format === 'kmz' ? unzipKml(await readFile(file)) : createReadStream(file))
}

export type Bytes = AsyncIterable<Uint8Array> | Iterable<Uint8Array>

// A declaration names the encoding within the first bytes.
const DECLARATION_BYTES = 200

/** The decoder of the encoding the declaration names (old GPX files are often ISO-8859-1), else UTF-8. */
function decoderOf(head: Uint8Array): TextDecoder {
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/.exec(new TextDecoder('latin1').decode(head.subarray(0, DECLARATION_BYTES)))?.[1]
  try {
    return new TextDecoder(declared ?? 'utf-8')
  } catch {
    return new TextDecoder('utf-8')
  }
}

/**
 * XML bytes as text, a chunk at a time, with every line end a line feed, as an XML parser must read it (sax does
 * not): a carriage return is kept only where the file writes it `&#13;`, as the KML and GPX writers do.
 */
async function* decodeXml(chunks: Bytes): AsyncGenerator<string> {
  let head = new Uint8Array(0)
  let decoder: TextDecoder | undefined
  let pending = '' // a carriage return that may begin a CRLF in the next chunk
  const lines = (text: string) => text.replace(/\r\n?/g, '\n')
  for await (const chunk of chunks) {
    let bytes = chunk
    if (!decoder) {
      head = Buffer.concat([head, chunk])
      if (head.length < DECLARATION_BYTES) continue
      decoder = decoderOf(head)
      bytes = head
    }
    const text = pending + decoder.decode(bytes, { stream: true })
    pending = text.endsWith('\r') ? '\r' : ''
    yield lines(text.slice(0, text.length - pending.length))
  }
  if (!decoder) {
    decoder = decoderOf(head)
    pending += decoder.decode(head, { stream: true })
  }
  yield lines(pending + decoder.decode())
}

/** The text of an element, nested elements' included (the DOM's textContent), and of its first CDATA section. */
type Gathering = { depth: number; text: string; cdata: string | undefined; done: (text: string, cdata: string | undefined) => void }

/** What a reader is told of a file, element by element; `depth` counts from the root's 1. */
type XmlReader<Item = XmlItem> = {
  open(name: string, attributes: Record<string, string>, depth: number): void
  close(name: string, depth: number): void
  end(): void
  /** the items read since the walk last took them */
  items: Item[]
}

/**
 * Walks XML with sax (strict, the five XML entities alone: no DTD is read and nothing fetched), telling `reader`,
 * and yields its items as the file is read. `gather` gives a reader the text of an element it has just been told of.
 */
async function* walkXml<Item = XmlItem>(
  chunks: Bytes,
  makeReader: (gather: (depth: number, done: Gathering['done']) => void) => XmlReader<Item>,
): AsyncGenerator<Item> {
  const options: sax.SAXOptions & { strictEntities: boolean } = { trim: false, normalize: false, position: true, strictEntities: true }
  const parser = sax.parser(true, options)
  const gatherings: Gathering[] = []
  let cdata: Gathering[] = [] // those whose first CDATA section is being read
  const reader = makeReader((depth, done) => gatherings.push({ depth, text: '', cdata: undefined, done }))
  let depth = 0
  let attributes = 0
  const refuse = (problem: string): never => {
    throw new UnreadableXml(`${problem} (line ${parser.line + 1})`)
  }
  parser.onerror = (error) => refuse(`the file is not well-formed XML: ${error.message.split('\n')[0]}`)
  parser.onopentagstart = () => {
    attributes = 0
  }
  parser.onattribute = () => {
    if (++attributes > MAX_ATTRIBUTES) refuse(`the file has an element of more than ${MAX_ATTRIBUTES} attributes, as no KML or GPX does`)
  }
  parser.onopentag = (tag) => {
    if (++depth > MAX_DEPTH) refuse(`the file nests elements more than ${MAX_DEPTH} deep, as no KML or GPX does`)
    reader.open(tag.name, tag.attributes as Record<string, string>, depth)
    tag.attributes = {} // sax keeps an element until it closes: not its attributes, once read
  }
  const gather = (gathering: Gathering, text: string) => {
    if (gathering.text.length + text.length > MAX_TEXT_CHARS)
      refuse(`the file has an element of more than ${MAX_TEXT_CHARS / 1024 / 1024} M characters of text`)
    gathering.text += text
  }
  parser.ontext = (text) => {
    for (const gathering of gatherings) gather(gathering, text)
  }
  parser.onopencdata = () => {
    cdata = gatherings.filter((gathering) => gathering.depth === depth && gathering.cdata === undefined)
    for (const gathering of cdata) gathering.cdata = ''
  }
  parser.oncdata = (text) => {
    for (const gathering of gatherings) gather(gathering, text)
    for (const gathering of cdata) gathering.cdata += text
  }
  parser.onclosecdata = () => {
    cdata = []
  }
  parser.onclosetag = (name) => {
    while (gatherings.at(-1)?.depth === depth) {
      const { text, cdata: section, done } = gatherings.pop()!
      done(text, section)
    }
    reader.close(name, depth--)
  }
  for await (const text of decodeXml(chunks)) {
    parser.write(text)
    yield* reader.items.splice(0)
  }
  parser.close()
  reader.end()
  yield* reader.items.splice(0)
}

/** A name as a human reads it in a summary: quoted, at most 60 characters. */
function quoted(name: string | undefined): string {
  if (!name) return ''
  return ` (“${name.length > 60 ? `${name.slice(0, 59)}…` : name}”)`
}

// A KML <when> may be a year or a month (xsd:gYear, gYearMonth); a post's date must be a day at least.
const FULL_DATE = /^\d{4}-\d{2}-\d{2}/

const GEOMETRY_NAMES = { Polygon: 'an area', GeometryCollection: 'several shapes' }

/** KML features that are no place (togeojson made them placemarks without a point): skipped, and said. */
const NOT_PLACES = new Map([
  ['GroundOverlay', 'an image laid on the map'],
  ['NetworkLink', 'a link to another KML file'],
])

/** A `lon,lat[,alt]` tuple as togeojson read it: spaces dropped, at most three numbers. */
const tuple = (text: string) =>
  text
    .replace(/\s+/g, '')
    .split(',')
    .map(Number.parseFloat)
    .filter((number) => !Number.isNaN(number))
    .slice(0, 3)

/** The positions of a KML coordinates list (tuples of two numbers at least): how many, the first and the last. */
function positionsOf(text: string): { count: number; first?: number[]; last?: number[] } {
  const positions: { count: number; first?: number[]; last?: number[] } = { count: 0 }
  for (const [token] of text.matchAll(/\S+/g)) {
    const position = tuple(token)
    if (position.length < 2) continue
    positions.count++
    positions.first ??= position
    positions.last = position
  }
  return positions
}

/** Whether a coordinates list makes a ring of an area: four positions at least, once closed (togeojson closed it). */
function isRing(text: string): boolean {
  const { count, first, last } = positionsOf(text)
  const closed = first !== undefined && last !== undefined && first.length === last.length && first.every((value, index) => value === last[index])
  return count + (closed || count === 0 ? 0 : 1) >= 4
}

type Geometry = { type: 'Point'; coordinates: number[] } | { type: 'LineString' | 'Polygon' }

/** Positions of a gx:Track: how many, and the first (a track of one is a point). */
type Coords = { count: number; first?: string }

/**
 * A geometry element being read: the text of its first `coordinates`, an area's rings (the one being read, and how
 * many make a ring), a track's `coord` positions, else those of any prefix (`gx:coord`).
 */
type Shape = { name: string; depth: number; coordinates?: string; ring?: { depth: number; read: boolean }; rings: number; exact: Coords; prefixed: Coords }

/** A Placemark (or a feature that is none) being read: the first of each element togeojson read, as it read it. */
type Placemark = {
  name: string
  depth: number
  fields: { name?: string; description?: string; cdata?: string; address?: string; timestamp?: string; begin?: string }
  /** the elements of which only the first is read, once met */
  seen: Set<string>
  /** Data values, then SimpleData ones (which togeojson let win), of the names read (DATA_READ) */
  data: Map<string, string>
  simpleData: Map<string, string>
  open: { timeStamp?: number; timeSpan?: number; extendedData?: number; data?: { depth: number; name: string; read: boolean } }
  /** the depths whose children are geometries: the placemark's, and a MultiGeometry's */
  containers: number[]
  shape?: Shape
  /** the first geometry, and how many: one is the placemark's, more a collection */
  geometry?: Geometry
  geometries: number
}

/** The ExtendedData Places writes and reads back; others are not kept, however many a placemark has. */
const DATA_READ = new Set(['slug', 'post_type', 'categories'])

const CONTAINERS = new Set(['MultiGeometry', 'MultiTrack', 'gx:MultiTrack'])
const SHAPES = new Set(['Point', 'LineString', 'LinearRing', 'Polygon', 'Track', 'gx:Track'])

/** The geometry a shape element makes, if any (togeojson's rules: a line of two positions, a track of one a point). */
function geometryOf(shape: Shape): Geometry | undefined {
  if (shape.name === 'Point') {
    const coordinates = tuple(shape.coordinates ?? '')
    return coordinates.length >= 2 ? { type: 'Point', coordinates } : undefined
  }
  if (shape.name === 'LineString' || shape.name === 'LinearRing') return positionsOf(shape.coordinates ?? '').count >= 2 ? { type: 'LineString' } : undefined
  if (shape.name === 'Polygon') return shape.rings > 0 ? { type: 'Polygon' } : undefined
  const coords = shape.exact.count > 0 ? shape.exact : shape.prefixed
  if (coords.count >= 2) return { type: 'LineString' }
  return coords.count === 1 ? { type: 'Point', coordinates: (coords.first ?? '').split(' ').map(Number.parseFloat) } : undefined
}

/**
 * Reads KML as Google My Maps and Google Earth write it: each Placemark with a point (or none) is a place; its name
 * the title, its description the content (HTML, as KML allows), its address and TimeStamp kept; the folders it sits
 * in are its category ("Folder > Subfolder"). What Places itself writes in ExtendedData (slug, post_type,
 * categories: lib/places/formats/write.ts) is read back. Placemarks of lines are named as lines (the import keeps them
 * as a trip's tracks, readKmlTracks); areas, image overlays and network links are skipped, and said. Refused whole, with UnreadableXml, if it is not well-formed or holds no Placemark.
 */
export function readKml(chunks: Bytes): AsyncGenerator<XmlItem> {
  return walkXml(chunks, (gather) => {
    const items: XmlItem[] = []
    const folders: { depth: number; name?: string }[] = []
    let placemark: Placemark | undefined
    let count = 0

    const openInPlacemark = (p: Placemark, name: string, attributes: Record<string, string>, depth: number) => {
      const first = (key: string) => {
        if (p.seen.has(key)) return false
        p.seen.add(key)
        return true
      }
      if ((name === 'name' || name === 'address') && first(name)) gather(depth, (text) => (p.fields[name] = text))
      else if (name === 'description' && first(name)) gather(depth, (text, cdata) => Object.assign(p.fields, { description: text, cdata }))
      else if (name === 'TimeStamp' && first(name)) [p.open.timeStamp, p.fields.timestamp] = [depth, '']
      else if (name === 'TimeSpan' && first(name)) [p.open.timeSpan, p.fields.begin] = [depth, '']
      else if (name === 'when' && p.open.timeStamp !== undefined && first(name)) gather(depth, (text) => (p.fields.timestamp = text))
      else if (name === 'begin' && p.open.timeSpan !== undefined && first(name)) gather(depth, (text) => (p.fields.begin = text))
      else if (name === 'ExtendedData' && first(name)) p.open.extendedData = depth
      else if (name === 'Data' && p.open.extendedData !== undefined && DATA_READ.has(attributes.name ?? '')) {
        p.open.data = { depth, name: attributes.name!, read: false }
        p.data.set(p.open.data.name, '')
      } else if (name === 'value' && p.open.data && !p.open.data.read) {
        const key = p.open.data.name
        p.open.data.read = true
        gather(depth, (text) => p.data.set(key, text))
      } else if (name === 'SimpleData' && p.open.extendedData !== undefined && DATA_READ.has(attributes.name ?? '')) {
        const key = attributes.name!
        gather(depth, (text) => p.simpleData.set(key, text))
      }

      // Geometries are the placemark's children, and those of a MultiGeometry in it.
      const shape = p.shape
      if (!shape) {
        if (p.containers.at(-1) !== depth - 1) return
        if (CONTAINERS.has(name)) p.containers.push(depth)
        else if (SHAPES.has(name)) p.shape = { name, depth, rings: 0, exact: { count: 0 }, prefixed: { count: 0 } }
      } else if (shape.name === 'Polygon') {
        if (name === 'LinearRing' && !shape.ring) shape.ring = { depth, read: false }
        else if (name === 'coordinates' && shape.ring && !shape.ring.read) {
          shape.ring.read = true
          gather(depth, (text) => (shape.rings += isRing(text) ? 1 : 0))
        }
      } else if (name === 'coordinates' && shape.coordinates === undefined) {
        shape.coordinates = ''
        gather(depth, (text) => (shape.coordinates = text))
      } else if (name === 'coord' || name.endsWith(':coord')) {
        const coords = name === 'coord' ? shape.exact : shape.prefixed
        if (coords.count++ === 0) gather(depth, (text) => (coords.first = text))
      }
    }

    const closeInPlacemark = (p: Placemark, depth: number) => {
      if (p.open.timeStamp === depth) p.open.timeStamp = undefined
      if (p.open.timeSpan === depth) p.open.timeSpan = undefined
      if (p.open.extendedData === depth) p.open.extendedData = undefined
      if (p.open.data?.depth === depth) p.open.data = undefined
      const shape = p.shape
      if (shape?.ring?.depth === depth) shape.ring = undefined
      if (shape?.depth === depth) {
        const geometry = geometryOf(shape)
        if (geometry && p.geometries++ === 0) p.geometry = geometry
        p.shape = undefined
      }
      if (p.containers.length > 1 && p.containers.at(-1) === depth) p.containers.pop()
    }

    const finish = (p: Placemark) => {
      const name = p.fields.name || undefined
      const label = `placemark ${++count}${quoted(name)}`
      const geometry: Geometry | { type: 'GeometryCollection' } | null =
        p.geometries === 0 ? null : p.geometries === 1 ? p.geometry! : { type: 'GeometryCollection' }
      const notPlace = NOT_PLACES.get(p.name)
      if (notPlace) return items.push({ skipped: `${label}: ${notPlace}, not a point` })
      if (geometry?.type === 'LineString') return items.push({ line: label })
      if (geometry && geometry.type !== 'Point') return items.push({ skipped: `${label}: ${GEOMETRY_NAMES[geometry.type]}, not a point` })
      const data = new Map([...p.data, ...p.simpleData])
      const written = data.get('categories')
      const path = folders.map((folder) => folder.name?.trim()).filter(Boolean)
      const when = p.fields.timestamp ?? p.fields.begin
      const properties: Record<string, unknown> = {
        title: name ?? '',
        content: p.fields.cdata ?? p.fields.description ?? '',
        address: p.fields.address ?? '',
        categories: written !== undefined ? splitCategories(written) : path.length > 0 ? [path.join(' > ')] : [],
      }
      if (when && FULL_DATE.test(when)) properties.date = when
      for (const key of ['slug', 'post_type'] as const) {
        const value = data.get(key)
        if (value) properties[key === 'post_type' ? 'type' : key] = value
      }
      items.push({ entry: { feature: { type: 'Feature', geometry, properties }, label } })
    }

    return {
      items,
      open(name, attributes, depth) {
        if (placemark) return openInPlacemark(placemark, name, attributes, depth)
        if (name === 'Placemark' || NOT_PLACES.has(name)) {
          placemark = { name, depth, fields: {}, seen: new Set(), data: new Map(), simpleData: new Map(), open: {}, containers: [depth], geometries: 0 }
        } else if (name === 'Folder') folders.push({ depth })
        else if (name === 'name' && folders.at(-1)?.depth === depth - 1) {
          const folder = folders.at(-1)!
          gather(depth, (text) => (folder.name = text))
        }
      },
      close(name, depth) {
        if (placemark?.depth === depth) {
          finish(placemark)
          placemark = undefined
        } else if (placemark) closeInPlacemark(placemark, depth)
        else if (folders.at(-1)?.depth === depth) folders.pop()
      },
      end() {
        if (count === 0) throw new UnreadableXml('the KML file holds no Placemark')
      },
    }
  })
}

/** Category paths as Places writes them in one field (CSV, KML ExtendedData): `Europe > France|Museums`. */
export function splitCategories(field: string): string[] {
  return field
    .split('|')
    .map((path) => path.trim())
    .filter(Boolean)
}

// Compressed bytes given to the inflater at a time: what one step may unpack past a bound is a thousand times this.
const UNZIP_STEP = 1024

/** Refuses a KMZ's KML once it has unpacked past a bound (MAX_UNZIPPED_BYTES, MAX_UNZIP_RATIO). */
function checkUnzipped(name: string, unzipped: number, compressed: number): void {
  if (unzipped > MAX_UNZIPPED_BYTES) throw new UnreadableXml(`${name} in the KMZ unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB: ${UNZIP_IT}`)
  if (unzipped > MAX_UNZIP_RATIO * compressed) {
    throw new UnreadableXml(
      `${name} in the KMZ unpacks to more than ${MAX_UNZIP_RATIO} times its compressed size (${compressed.toLocaleString('en')} bytes), as a zip bomb does and no map: if you trust the file, ${UNZIP_IT}`,
    )
  }
}

/**
 * The main KML of a KMZ, inflated a step at a time: `doc.kml`, else its first `.kml` (Google Earth's rule); images
 * in it are not read. Refused by what its header declares, before anything is inflated, and by what it unpacks to,
 * as soon as it passes a bound (checkUnzipped).
 */
export function* unzipKml(kmz: Uint8Array): Generator<Uint8Array> {
  const kmls: { name: string; size: number; originalSize: number }[] = []
  try {
    unzipSync(kmz, {
      filter: (file) => {
        if (file.name.toLowerCase().endsWith('.kml')) kmls.push(file)
        return false // the central directory alone: nothing is inflated here
      },
    })
  } catch (error) {
    throw new UnreadableXml(`the file is not a readable KMZ (zip): ${(error as Error).message}`)
  }
  const main = kmls.find((kml) => kml.name.toLowerCase() === 'doc.kml') ?? kmls[0]
  if (!main) throw new UnreadableXml('the KMZ (zip) holds no .kml file')
  const compressed = Math.min(main.size, kmz.length)
  checkUnzipped(main.name, main.originalSize, compressed)
  const pieces: Uint8Array[] = []
  let unzipped = 0
  let failure: Error | null = null
  let started = false
  let finished = false
  const unzip = new Unzip((file) => {
    if (file.name !== main.name || started) return
    started = true
    file.ondata = (error, data, final) => {
      if (error) failure ??= error
      else {
        pieces.push(data)
        unzipped += data.length
      }
      finished ||= final
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  for (let offset = 0; offset < kmz.length && !finished; offset += UNZIP_STEP) {
    try {
      unzip.push(kmz.subarray(offset, offset + UNZIP_STEP), offset + UNZIP_STEP >= kmz.length)
    } catch (error) {
      failure ??= error as Error
    }
    if (failure) throw new UnreadableXml(`the file is not a readable KMZ (zip): ${failure.message}`)
    checkUnzipped(main.name, unzipped, compressed)
    yield* pieces.splice(0)
  }
}

/** A GPX item being read: a waypoint, or a track or route, which are no places. */
type GpxItem = {
  name: 'wpt' | 'trk' | 'rte'
  depth: number
  attributes: Record<string, string>
  fields: { name?: string; desc?: string; cmt?: string; time?: string; ele?: string }
  seen: Set<string>
  /** a track's segments of two positions at least */
  segments: number
  /** the trkseg being read, and its positions; a route's positions */
  segment?: number
  positions: number
}

const WAYPOINT_FIELDS = new Set(['name', 'desc', 'cmt', 'time', 'ele'])

/** Whether an element's lat and lon attributes are numbers, as togeojson required of a position. */
const isPosition = (attributes: Record<string, string>) =>
  !Number.isNaN(Number.parseFloat(attributes.lat ?? '')) && !Number.isNaN(Number.parseFloat(attributes.lon ?? ''))

/**
 * Reads GPX waypoints (<wpt>): name the title, desc (else cmt) the content, time the date. Tracks and routes are no
 * places: they are named as lines (the import keeps them as a trip's tracks, readGpxTracks). Refused whole, with UnreadableXml, if it is not well-formed or holds neither.
 */
export function readGpx(chunks: Bytes): AsyncGenerator<XmlItem> {
  return walkXml(chunks, (gather) => {
    const items: XmlItem[] = []
    let item: GpxItem | undefined
    let waypoints = 0
    let lines = 0

    const finish = ({ name: kind, attributes, fields, segments, positions }: GpxItem) => {
      const name = fields.name || undefined
      if ((kind === 'trk' && segments > 0) || (kind === 'rte' && positions >= 2)) {
        lines++
        return items.push({ line: `a ${kind === 'trk' ? 'track' : 'route'}${quoted(name)}` })
      }
      if (kind !== 'wpt' || !isPosition(attributes)) return
      const coordinates = [Number.parseFloat(attributes.lon!), Number.parseFloat(attributes.lat!)]
      const ele = Number.parseFloat(fields.ele ?? '')
      if (!Number.isNaN(ele)) coordinates.push(ele)
      // GPX's desc is text, shown as written: its `<` are not markup.
      const properties: Record<string, unknown> = { title: name ?? '', content: htmlFromText(fields.desc || fields.cmt || '') }
      if (fields.time) properties.date = fields.time
      items.push({
        entry: { feature: { type: 'Feature', geometry: { type: 'Point', coordinates }, properties }, label: `waypoint ${++waypoints}${quoted(name)}` },
      })
    }

    return {
      items,
      open(name, attributes, depth) {
        if (!item) {
          if (name === 'wpt' || name === 'trk' || name === 'rte') item = { name, depth, attributes, fields: {}, seen: new Set(), segments: 0, positions: 0 }
          return
        }
        const it = item
        if ((name === 'name' || (it.name === 'wpt' && WAYPOINT_FIELDS.has(name))) && !it.seen.has(name)) {
          it.seen.add(name)
          gather(depth, (text) => (it.fields[name as keyof GpxItem['fields']] = text))
        } else if (it.name === 'trk' && name === 'trkseg' && it.segment === undefined) [it.segment, it.positions] = [depth, 0]
        else if ((it.name === 'trk' ? name === 'trkpt' && it.segment !== undefined : it.name === 'rte' && name === 'rtept') && isPosition(attributes)) {
          it.positions++
        }
      },
      close(_name, depth) {
        if (item?.segment === depth) {
          if (item.positions >= 2) item.segments++
          item.segment = undefined
        } else if (item?.depth === depth) {
          finish(item)
          item = undefined
        }
      },
      end() {
        if (waypoints === 0 && lines === 0) throw new UnreadableXml('the GPX file holds no waypoint')
      },
    }
  })
}

// A GPX time (and a KML <when> of a track) is xsd:dateTime, in UTC by the standard when it names no zone.
const GPX_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/

/** The milliseconds a GPX <time> or a KML track's <when> names, or NaN. */
export function gpxTime(text: string): number {
  const time = text.trim()
  const match = GPX_TIME.exec(time)
  if (!match) return Number.NaN
  return Date.parse(match[3] ? time : `${time}Z`)
}

/** A GPX track or route being read, and the point being read in it. */
type GpxLine = {
  depth: number
  name: string
  builder: TrackBuilder
  point?: { depth: number; latitude: number; longitude: number; time: number; elevation: number }
}

/**
 * The tracks (<trk>, a segment per <trkseg>) and routes (<rte>, points without times) of a GPX file, in its order,
 * each point with its <time> and <ele> where given. Waypoints are not read here (readGpx reads them). Refused with
 * UnreadableXml if it is not well-formed; a file without a line gives none.
 */
export async function readGpxTracks(chunks: Bytes): Promise<Track[]> {
  const tracks: Track[] = []
  const walk = walkXml<Track>(chunks, (gather) => {
    const items: Track[] = []
    let line: GpxLine | undefined
    return {
      items,
      open(name, attributes, depth) {
        if (!line) {
          if (name === 'trk' || name === 'rte') line = { depth, name: '', builder: new TrackBuilder() }
          return
        }
        const it = line
        if (it.point) {
          const point = it.point
          if (depth !== point.depth + 1) return
          if (name === 'time') gather(depth, (text) => (point.time = gpxTime(text)))
          else if (name === 'ele') gather(depth, (text) => (point.elevation = Number.parseFloat(text)))
        } else if (name === 'name' && depth === it.depth + 1) gather(depth, (text) => (it.name = text.trim()))
        else if (name === 'trkseg') it.builder.segment()
        else if ((name === 'trkpt' || name === 'rtept') && isPosition(attributes)) {
          const latitude = Number.parseFloat(attributes.lat!)
          const longitude = Number.parseFloat(attributes.lon!)
          if (Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180) it.point = { depth, latitude, longitude, time: Number.NaN, elevation: Number.NaN }
        }
      },
      close(name, depth) {
        if (!line) return
        if (line.point?.depth === depth) {
          const { latitude, longitude, time, elevation } = line.point
          // Routes are plans: their points were never there at a time.
          line.builder.add(latitude, longitude, name === 'trkpt' ? time : Number.NaN, elevation)
          line.point = undefined
        } else if (line.depth === depth) {
          if (line.builder.size > 0) items.push(line.builder.build(line.name))
          line = undefined
        }
      },
      end() {},
    }
  })
  for await (const track of walk) tracks.push(track)
  return tracks
}

/** A KML placemark being read for its lines, and the gx:Track being read in it. */
type KmlLine = { depth: number; name: string; builder: TrackBuilder; track?: { depth: number; whens: string[]; coords: string[] }; lineString?: number }

/** An element's name without its namespace prefix (`gx:Track` is `Track`): files differ in the prefix they give. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1)

/**
 * The lines of a KML file's placemarks, a track each, in its order: a `gx:Track` (a `<when>` for each `<gx:coord>`, a
 * segment each, also inside a `gx:MultiTrack`) with its times, a `LineString` without. Refused with UnreadableXml if
 * it is not well-formed; a file without a line gives none.
 */
export async function readKmlTracks(chunks: Bytes): Promise<Track[]> {
  const tracks: Track[] = []
  const walk = walkXml<Track>(chunks, (gather) => {
    const items: Track[] = []
    let line: KmlLine | undefined
    return {
      items,
      open(name, _attributes, depth) {
        const local = localName(name)
        if (!line) {
          if (local === 'Placemark') line = { depth, name: '', builder: new TrackBuilder() }
          return
        }
        const it = line
        if (it.track) {
          const track = it.track
          if (depth !== track.depth + 1) return
          if (local === 'when') gather(depth, (text) => track.whens.push(text))
          else if (local === 'coord') gather(depth, (text) => track.coords.push(text))
        } else if (local === 'name' && depth === it.depth + 1) gather(depth, (text) => (it.name = text.trim()))
        else if (local === 'Track') it.track = { depth, whens: [], coords: [] }
        else if (local === 'LineString') it.lineString = depth
        else if (local === 'coordinates' && it.lineString === depth - 1) {
          gather(depth, (text) => {
            it.builder.segment()
            for (const [token] of text.matchAll(/\S+/g)) {
              const [longitude, latitude, elevation] = tuple(token)
              if (Math.abs(latitude ?? 91) <= 90 && Math.abs(longitude ?? 181) <= 180) it.builder.add(latitude!, longitude!, Number.NaN, elevation)
            }
          })
        }
      },
      close(_name, depth) {
        if (!line) return
        if (line.track?.depth === depth) {
          const { whens, coords } = line.track
          line.builder.segment()
          for (let i = 0; i < Math.min(whens.length, coords.length); i++) {
            const [longitude, latitude, elevation] = coords[i]!.trim().split(/\s+/).map(Number.parseFloat)
            if (Math.abs(latitude ?? 91) <= 90 && Math.abs(longitude ?? 181) <= 180) line.builder.add(latitude!, longitude!, gpxTime(whens[i]!), elevation)
          }
          line.track = undefined
        } else if (line.lineString === depth) line.lineString = undefined
        else if (line.depth === depth) {
          if (line.builder.size > 0) items.push(line.builder.build(line.name))
          line = undefined
        }
      },
      end() {},
    }
  })
  for await (const track of walk) tracks.push(track)
  return tracks
}
