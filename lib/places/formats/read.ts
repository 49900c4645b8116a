import 'server-only'
import { createReadStream } from 'node:fs'
import { open, readFile } from 'node:fs/promises'
import path from 'node:path'
import { ApiError } from '../../http/errors'
import { featuresOfFile, type FeatureSource } from '../import'
import { readCsv, type CsvLayout, type CsvOptions } from './csv'
import { detectFormat, HEAD_BYTES, type ImportFileFormat } from './detect'
import type { ReadResult } from './types'
import { TrackBuilder, type Track } from '../../trips/track'
import { gpxTime, readGpxTracks, readKmlTracks, readXmlFile, UnreadableXml, unzipKml } from './xml-formats'

/** An import file, read: its features for the importer (lib/places/import.ts), and what the summary says. */
export type ImportFile = {
  format: Exclude<ImportFileFormat, 'wxr'>
  /** what one item of the format is called: placemark, waypoint, row, feature */
  item: string
  source: FeatureSource
  labelOf?: (index: number) => string
  /** a CSV file's header, delimiter, decimal mark and columns, as read */
  layout?: CsvLayout
  /** a GPX or KML file's lines (tracks, routes), named, and the trip the import makes of them (docs/trips.md) */
  lines?: string[]
  trip?: { title: string; tracks: Track[] }
} & Omit<ReadResult, 'entries'>

const FORMAT_NAMES: Record<ImportFile['format'], string> = { geojson: 'GeoJSON', kml: 'KML', kmz: 'KMZ', gpx: 'GPX', csv: 'CSV' }

export function formatName(format: ImportFile['format']): string {
  return FORMAT_NAMES[format]
}

function unreadable(file: string, reason: string): ApiError {
  return new ApiError('places_invalid_import', `Nothing was imported:\ncannot read ${file}: ${reason}`)
}

/**
 * Reads an import file of any format `places import` takes, chosen by its content (lib/places/formats/detect.ts);
 * `name` is the file's as its user knows it (an upload's), which names a trip whose lines have none.
 * GeoJSON, KML, KMZ and GPX are streamed, a feature at a time; CSV is read whole, as `csv` says (lib/places/formats/csv.ts).
 */
export async function readImportFile(file: string, csv?: CsvOptions, name = path.basename(file)): Promise<ImportFile> {
  const format = detectFormat(await readHead(file))
  if (typeof format === 'object') {
    throw unreadable(file, `an XML file whose root element is <${format.unknownXml}>, not <kml> or <gpx>`)
  }
  if (format === 'wxr') throw unreadable(file, 'it is a WordPress export (WXR): import it with `places import-wxr`')
  if (csv?.columns && format !== 'csv') throw unreadable(file, `it is ${FORMAT_NAMES[format]}, and columns are named for CSV files only`)
  if (format === 'geojson') return readGeojsonImport(file, name)
  if (format !== 'csv') return readXmlImport(file, format, name)
  const { entries, ...rest } = readCsv(await readFile(file), csv)
  const features = entries.map((entry) => entry.feature)
  return { format, item: 'row', source: () => features, labelOf: (index) => entries[index]?.label ?? `item ${index + 1}`, ...rest }
}

type LooseFeature = { geometry?: { type?: unknown; coordinates?: unknown } | null; properties?: Record<string, unknown> | null } | null

/** Whether a GeoJSON feature is a line (LineString, MultiLineString): a track, not a place. */
const isLine = (feature: unknown) => ['LineString', 'MultiLineString'].includes((feature as LooseFeature)?.geometry?.type as string)

/** A GeoJSON line as a track, with togeojson's times where it has them; null for one of fewer than two positions. */
function lineTrackOf(feature: unknown): Track | null {
  const { geometry, properties } = (feature ?? {}) as NonNullable<LooseFeature>
  const lines = geometry?.type === 'LineString' ? [geometry.coordinates] : geometry?.coordinates
  if (!Array.isArray(lines)) return null
  // togeojson writes a line's times as properties.coordinateProperties.times (older versions: coordTimes), an
  // array per line of a MultiLineString.
  const times = (properties?.coordinateProperties as { times?: unknown } | undefined)?.times ?? properties?.coordTimes
  const timesOf = (k: number): unknown[] => (Array.isArray(times) ? (geometry?.type === 'LineString' ? times : Array.isArray(times[k]) ? times[k] : []) : [])
  const builder = new TrackBuilder()
  lines.forEach((line, k) => {
    builder.segment()
    if (!Array.isArray(line)) return
    const lineTimes = timesOf(k)
    line.forEach((position, i) => {
      const [longitude, latitude, elevation] = Array.isArray(position) ? (position as unknown[]) : []
      if (typeof latitude !== 'number' || typeof longitude !== 'number' || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return
      const time = lineTimes[i]
      builder.add(latitude, longitude, typeof time === 'string' ? gpxTime(time) : Number.NaN, typeof elevation === 'number' ? elevation : Number.NaN)
    })
  })
  const name = properties?.name ?? properties?.title
  return builder.size >= 2 ? builder.build(typeof name === 'string' ? name.trim() : '') : null
}

/**
 * A GeoJSON file: read through once for its lines (a trip's tracks, docs/trips.md), then anew, without them, on each
 * of the importer's passes. A problem names the feature by its place in the file, lines counted.
 */
async function readGeojsonImport(file: string, name: string): Promise<ImportFile> {
  const features = featuresOfFile(file)
  const tracks: Track[] = []
  const lines: string[] = []
  /** the file's index of each feature the importer is given */
  const places: number[] = []
  let index = 0
  const skipped: string[] = []
  try {
    for await (const feature of features()) {
      const track = isLine(feature) ? lineTrackOf(feature) : null
      if (track) {
        tracks.push(track)
        lines.push(`feature ${index}${track.name ? ` (“${track.name}”)` : ''}`)
      } else if (isLine(feature)) skipped.push(`feature ${index}: a line of fewer than two positions`)
      else places.push(index)
      index++
    }
  } catch {
    // Unreadable: the importer's own pass says why, naming the file.
    return { format: 'geojson', item: 'feature', source: features, skipped: [], refused: [], notes: [] }
  }
  if (tracks.length === 0 && skipped.length === 0) return { format: 'geojson', item: 'feature', source: features, skipped: [], refused: [], notes: [] }
  return {
    format: 'geojson',
    item: 'feature',
    source: async function* () {
      for await (const feature of features()) if (!isLine(feature)) yield feature
    },
    labelOf: (i) => `feature ${places[i] ?? i}`,
    skipped,
    refused: [],
    notes: [],
    lines,
    ...(tracks.length > 0 ? { trip: { title: tracks.find((track) => track.name)?.name ?? name.replace(/\.[^.]*$/, ''), tracks } } : {}),
  }
}

/**
 * A KML, KMZ or GPX file, read through once for what it skips and why it is refused, then anew on each of the
 * importer's passes: its places are never all in memory. A problem names the place just read, the one it is about.
 */
async function readXmlImport(file: string, format: 'kml' | 'kmz' | 'gpx', name: string): Promise<ImportFile> {
  const item = format === 'gpx' ? 'waypoint' : 'placemark'
  const skipped: string[] = []
  const refused: string[] = []
  const lines: string[] = []
  try {
    for await (const read of readXmlFile(file, format)) {
      if ('skipped' in read) skipped.push(read.skipped)
      else if ('line' in read) lines.push(read.line)
    }
  } catch (error) {
    if (!(error instanceof UnreadableXml)) throw error
    refused.push(error.message)
  }
  // The lines, kept whole in memory (typed arrays: 32 bytes a point), as the trip the import makes.
  let tracks: Track[] = []
  if (lines.length > 0 && refused.length === 0) tracks = await readTrackFile(file).catch((error: Error) => (refused.push(error.message), []))
  const title = tracks.find((track) => track.name)?.name ?? name.replace(/\.[^.]*$/, '')
  let last = { index: -1, label: '' }
  return {
    format,
    item,
    source: async function* () {
      if (refused.length > 0) return
      let index = 0
      for await (const read of readXmlFile(file, format)) {
        if (!('entry' in read)) continue
        last = { index: index++, label: read.entry.label }
        yield read.entry.feature
      }
    },
    // The importer names the feature it has just been given (KML and GPX give no id that could name an earlier one).
    labelOf: (index) => (index === last.index ? last.label : `${item} ${index + 1}`),
    skipped,
    refused,
    notes: [],
    lines,
    ...(tracks.length > 0 ? { trip: { title, tracks } } : {}),
  }
}

/** The first HEAD_BYTES of `file`, which tell its format; an ApiError naming the file where it cannot be read. */
export async function readHead(file: string): Promise<Buffer> {
  let handle
  try {
    handle = await open(file, 'r')
  } catch (error) {
    throw unreadable(file, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message)
  }
  try {
    const head = Buffer.alloc(HEAD_BYTES)
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0)
    return head.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** The tracks of a GPX, KML or KMZ file (`places locate --from-track`), or an Error that says why it has none to give. */
export async function readTrackFile(file: string): Promise<Track[]> {
  const head = await readHead(file).catch((error: ApiError) => {
    throw new Error(error.message.split('\n').at(-1))
  })
  const format = detectFormat(head)
  if (format !== 'gpx' && format !== 'kml' && format !== 'kmz') {
    const what = typeof format === 'object' ? `XML of <${format.unknownXml}>` : format === 'wxr' ? 'a WordPress export' : FORMAT_NAMES[format]
    throw new Error(`cannot read ${file}: tracks are read from GPX, KML and KMZ files, and this is ${what}`)
  }
  try {
    if (format === 'gpx') return await readGpxTracks(createReadStream(file))
    return await readKmlTracks(format === 'kmz' ? unzipKml(await readFile(file)) : createReadStream(file))
  } catch (error) {
    if (error instanceof UnreadableXml) throw new Error(`cannot read ${file}: ${error.message}`)
    throw error
  }
}
