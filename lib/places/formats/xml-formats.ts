import 'server-only'
import { gpxGen, kmlWithFolders, type Folder, type F } from '@tmcw/togeojson'
import { DOMParser } from '@xmldom/xmldom'
import { unzipSync } from 'fflate'
import type { ImportFeatureInput, ReadResult } from './read'

/**
 * The largest KML or GPX read: they are read whole, as a DOM (togeojson needs one), which takes about a hundred times
 * the file's size in memory (an 11 MB KML of 20,000 placemarks: 1.2 GB). A KMZ's KML past it is refused before it
 * is inflated (a zip bomb too). GeoJSON is streamed, and has no such bound.
 */
export const MAX_XML_BYTES = 64 * 1024 * 1024

/** What to do with a file too large to read whole. */
export const TOO_LARGE = 'split it, or convert it to GeoJSON (ogr2ogr -f GeoJSON out.geojson FILE), which is read as a stream'

const refuse = (problem: string): ReadResult => ({ entries: [], skipped: [], refused: [problem], notes: [] })

/** XML bytes as text, in the encoding the declaration names (old GPX files are often ISO-8859-1), else UTF-8. */
function decodeXml(bytes: Uint8Array): string {
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1]
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes)
  } catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}

/** A DOM of the text, or the parser's first error: xmldom reads no DTD and fetches nothing (no external entities). */
function parseXml(bytes: Uint8Array): Document | string {
  try {
    const parser = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message)
      },
    })
    return parser.parseFromString(decodeXml(bytes), 'text/xml') as unknown as Document
  } catch (error) {
    return `the file is not well-formed XML: ${(error as Error).message.split('\n')[0]}`
  }
}

/** A property's text: togeojson gives a KML description in CDATA as `{"@type": "html", value}`. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  if (value && typeof value === 'object' && 'value' in value && typeof value.value === 'string') return value.value
  return undefined
}

// A KML <when> may be a year or a month (xsd:gYear, gYearMonth); a post's date must be a day at least.
const FULL_DATE = /^\d{4}-\d{2}-\d{2}/

/** A name as a human reads it in a summary: quoted, at most 60 characters. */
function quoted(name: string | undefined): string {
  if (!name) return ''
  return ` (“${name.length > 60 ? `${name.slice(0, 59)}…` : name}”)`
}

const GEOMETRY_NAMES: Record<string, string> = {
  LineString: 'a line',
  MultiLineString: 'lines',
  Polygon: 'an area',
  MultiPolygon: 'areas',
  MultiPoint: 'several points',
  GeometryCollection: 'several shapes',
}

function pointOf(feature: F): ImportFeatureInput['geometry'] {
  return feature.geometry?.type === 'Point' ? { type: 'Point', coordinates: feature.geometry.coordinates } : null
}

/**
 * Reads KML as Google My Maps and Google Earth write it: each Placemark with a point (or none) is a place; its name
 * the title, its description the content (HTML, as KML allows), its address and TimeStamp kept; the folders it sits
 * in are its category ("Folder > Subfolder"). What Places itself writes in ExtendedData (slug, post_type,
 * categories: lib/places/formats/write.ts) is read back. Placemarks of lines or areas are skipped, and said.
 */
export function readKml(bytes: Uint8Array): ReadResult {
  const doc = parseXml(bytes)
  if (typeof doc === 'string') return refuse(doc)
  const result: ReadResult = { entries: [], skipped: [], refused: [], notes: [] }
  let index = 0
  const walk = (children: (Folder | F)[], folders: string[]) => {
    for (const child of children) {
      if (child.type === 'folder') {
        const name = text(child.meta.name)?.trim()
        walk(child.children, name ? [...folders, name] : folders)
        continue
      }
      const label = `placemark ${++index}`
      const p = child.properties ?? {}
      const name = text(p.name)
      if (child.geometry && child.geometry.type !== 'Point') {
        result.skipped.push(`${label}${quoted(name)}: ${GEOMETRY_NAMES[child.geometry.type] ?? child.geometry.type}, not a point`)
        continue
      }
      const written = text(p.categories)
      const when = text(p.timestamp) ?? text((p.timespan as { begin?: unknown } | undefined)?.begin)
      const properties: Record<string, unknown> = {
        title: name ?? '',
        content: text(p.description) ?? '',
        address: text(p.address) ?? '',
        categories: written !== undefined ? splitCategories(written) : folders.length > 0 ? [folders.join(' > ')] : [],
      }
      if (when && FULL_DATE.test(when)) properties.date = when
      for (const key of ['slug', 'post_type'] as const) {
        const value = text(p[key])
        if (value) properties[key === 'post_type' ? 'type' : key] = value
      }
      result.entries.push({ feature: { type: 'Feature', geometry: pointOf(child), properties }, label: `${label}${quoted(name)}` })
    }
  }
  walk(kmlWithFolders(doc).children, [])
  if (index === 0) result.refused.push('the KML file holds no Placemark')
  return result
}

/** Category paths as Places writes them in one field (CSV, KML ExtendedData): `Europe > France|Museums`. */
export function splitCategories(field: string): string[] {
  return field
    .split('|')
    .map((path) => path.trim())
    .filter(Boolean)
}

/** A KMZ: a zip whose main KML is `doc.kml`, else its first `.kml` (Google Earth's rule); images in it are not read. */
export function readKmz(bytes: Uint8Array): ReadResult {
  const kmls: { name: string; tooLarge: boolean }[] = []
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (!file.name.toLowerCase().endsWith('.kml')) return false
        const tooLarge = file.originalSize > MAX_XML_BYTES
        kmls.push({ name: file.name, tooLarge })
        return !tooLarge
      },
    })
  } catch (error) {
    return refuse(`the file is not a readable KMZ (zip): ${(error as Error).message}`)
  }
  const main = kmls.find((kml) => kml.name.toLowerCase() === 'doc.kml') ?? kmls[0]
  if (!main) return refuse('the KMZ (zip) holds no .kml file')
  if (main.tooLarge) return refuse(`${main.name} in the KMZ unpacks to more than ${MAX_XML_BYTES / 1024 / 1024} MB: ${TOO_LARGE}`)
  return readKml(files[main.name]!)
}

/**
 * Reads GPX waypoints (<wpt>): name the title, desc (else cmt) the content, time the date. Tracks and routes are no
 * places: they are skipped, and said.
 */
export function readGpx(bytes: Uint8Array): ReadResult {
  const doc = parseXml(bytes)
  if (typeof doc === 'string') return refuse(doc)
  const result: ReadResult = { entries: [], skipped: [], refused: [], notes: [] }
  let waypoints = 0
  for (const feature of gpxGen(doc)) {
    const p = feature.properties ?? {}
    const name = text(p.name)
    if (feature.geometry?.type !== 'Point') {
      const kind = p._gpxType === 'rte' ? 'a route' : 'a track'
      result.skipped.push(`${kind}${quoted(name)}: a line, not a waypoint`)
      continue
    }
    const label = `waypoint ${++waypoints}${quoted(name)}`
    const time = text(p.time)
    const properties: Record<string, unknown> = { title: name ?? '', content: text(p.desc) ?? text(p.cmt) ?? '' }
    if (time) properties.date = time
    result.entries.push({ feature: { type: 'Feature', geometry: pointOf(feature), properties }, label })
  }
  if (waypoints === 0 && result.skipped.length === 0) result.refused.push('the GPX file holds no waypoint')
  return result
}
