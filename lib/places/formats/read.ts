import 'server-only'
import { open, readFile, stat } from 'node:fs/promises'
import { ApiError } from '../../http/errors'
import { featuresOfFile, type FeatureSource } from '../import'
import { readCsv } from './csv'
import { detectFormat, HEAD_BYTES, type ImportFileFormat } from './detect'
import { MAX_XML_BYTES, readGpx, readKml, readKmz, TOO_LARGE } from './xml-formats'

/** A place as a reader makes it: a feature of the import format (docs/cli.md), and what problems call it. */
export type ReadEntry = { feature: ImportFeatureInput; label: string }

/** The import format's feature before its check: only the properties a file gave. */
export type ImportFeatureInput = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: number[] } | null
  properties: Record<string, unknown>
}

/** What a reader found in a file other than GeoJSON. */
export type ReadResult = {
  entries: ReadEntry[]
  /** items that are no place (a KML line, a GPX track), each with what it is: they are left out, not refused */
  skipped: string[]
  /** problems that refuse the whole file (a CSV number that is none): the import then writes nothing */
  refused: string[]
  /** what else the reader has to say (CSV columns it did not read) */
  notes: string[]
}

/** An import file, read: its features for the importer (lib/places/import.ts), and what the summary says. */
export type ImportFile = {
  format: Exclude<ImportFileFormat, 'wxr'>
  /** what one item of the format is called: placemark, waypoint, row, feature */
  item: string
  source: FeatureSource
  labelOf?: (index: number) => string
} & Omit<ReadResult, 'entries'>

const FORMAT_NAMES: Record<ImportFile['format'], string> = { geojson: 'GeoJSON', kml: 'KML', kmz: 'KMZ', gpx: 'GPX', csv: 'CSV' }

export function formatName(format: ImportFile['format']): string {
  return FORMAT_NAMES[format]
}

function unreadable(file: string, reason: string): ApiError {
  return new ApiError('places_invalid_import', `Nothing was imported:\ncannot read ${file}: ${reason}`, 400)
}

/**
 * Reads an import file of any format `places import` takes, chosen by its content (lib/places/formats/detect.ts).
 * GeoJSON is streamed as before, a feature at a time; the others are read whole (a DOM for XML, as togeojson needs).
 */
export async function readImportFile(file: string): Promise<ImportFile> {
  const format = detectFormat(await readHead(file))
  if (typeof format === 'object') {
    throw unreadable(file, `an XML file whose root element is <${format.unknownXml}>, not <kml> or <gpx>`)
  }
  if (format === 'wxr') throw unreadable(file, 'it is a WordPress export (WXR): import it with `places import-wxr`')
  if (format === 'geojson') return { format, item: 'feature', source: featuresOfFile(file), skipped: [], refused: [], notes: [] }
  if ((format === 'kml' || format === 'gpx') && (await stat(file)).size > MAX_XML_BYTES) {
    throw unreadable(file, `a ${formatName(format)} file larger than ${MAX_XML_BYTES / 1024 / 1024} MB is not read whole: ${TOO_LARGE}`)
  }
  const bytes = await readFile(file)
  const read = format === 'kmz' ? readKmz(bytes) : format === 'kml' ? readKml(bytes) : format === 'gpx' ? readGpx(bytes) : readCsv(bytes)
  const { entries, ...rest } = read
  const features = entries.map((entry) => entry.feature)
  return {
    format,
    item: format === 'csv' ? 'row' : format === 'gpx' ? 'waypoint' : 'placemark',
    source: () => features,
    labelOf: (index) => entries[index]?.label ?? `item ${index + 1}`,
    ...rest,
  }
}

async function readHead(file: string): Promise<Buffer> {
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
