import 'server-only'
import { parse } from 'csv-parse/sync'
import type { ReadResult } from './types'
import { unescapeFormula } from './write'
import { splitCategories } from './xml-formats'

/** The fields a CSV column can fill, and the header names (lower case, letters and digits only) each is found by, best first. */
export const CSV_COLUMNS = {
  latitude: ['latitude', 'lat', 'y'],
  longitude: ['longitude', 'lon', 'lng', 'long', 'x'],
  title: ['title', 'name'],
  content: ['content', 'description', 'desc', 'notes'],
  excerpt: ['excerpt', 'summary'],
  address: ['address'],
  slug: ['slug'],
  type: ['posttype'],
  date: ['date'],
  categories: ['categories', 'category'],
  tags: ['tags', 'tag', 'keywords'],
  author: ['author', 'authoremail'],
} as const

export type CsvField = keyof typeof CSV_COLUMNS
type Field = CsvField
export const CSV_FIELDS = Object.keys(CSV_COLUMNS) as CsvField[]

/**
 * How to read a CSV file where finding out is not enough: `columns` names the header of the column each field is in
 * (`places import --columns title=Titel,latitude=Breitengrad`), '' for none; the others are still found by their names. The
 * `delimiter` and the decimal mark are found from the file unless given; a given decimal mark is the only one read.
 */
export type CsvOptions = { columns?: Partial<Record<CsvField, string>>; delimiter?: CsvDelimiter; decimalComma?: boolean }

/** Columns Places writes that an import does not read: ids are the site's own (docs/cli.md, Other formats). */
const WRITTEN_NOT_READ = new Set(['id', 'url'])

export const DELIMITERS = [',', ';', '\t', '|'] as const
export type CsvDelimiter = (typeof DELIMITERS)[number]

const normalise = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '')

/** The delimiter of a CSV file: of , ; tab and |, the one found most often in its first line outside quotes. */
export function detectDelimiter(text: string): CsvDelimiter {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
  const counts = new Map<string, number>()
  let quoted = false
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted
    else if (!quoted && (DELIMITERS as readonly string[]).includes(char)) counts.set(char, (counts.get(char) ?? 0) + 1)
  }
  let best: CsvDelimiter = ','
  for (const delimiter of DELIMITERS) if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter
  return best
}

/** Text as a spreadsheet saved it: UTF-8 (a BOM is dropped), else Windows-1252, what Excel writes on Windows. */
function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    return new TextDecoder('windows-1252').decode(bytes)
  }
}

/**
 * A decimal number as spreadsheets write one: `48.8584`, or with a decimal comma, `48,8584` (a European locale; the
 * file is then `;`-separated). Undefined for anything else (degrees and minutes, say).
 */
export function parseDecimal(text: string, decimalComma?: boolean): number | undefined {
  const trimmed = text.trim()
  if (decimalComma === true && trimmed.includes('.')) return undefined
  if (decimalComma === false && trimmed.includes(',')) return undefined
  const value = trimmed.replace(/^([+-]?\d*),(\d+)$/, '$1.$2')
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(value) ? Number(value) : undefined
}

/** How a CSV file was read: its header, and the delimiter, decimal mark and columns used (the import screen shows them). */
export type CsvLayout = { header: string[]; delimiter: CsvDelimiter; decimalComma: boolean; columns: Partial<Record<CsvField, string>> }

/**
 * Reads a CSV file with a header row: the columns are found by name (CSV_COLUMNS) unless `options` names them, the
 * delimiter by the header line, a decimal comma is read as a point, a text cell's formula escape taken off. A row
 * without latitude and longitude is a post without a location; a row with one of them, or a number that is none, is
 * refused with its line number. Empty rows are left out.
 */
export function readCsv(bytes: Uint8Array, options: CsvOptions = {}): ReadResult & { layout?: CsvLayout } {
  const text = decodeCsv(bytes).replace(/^\uFEFF/, '')
  const result: ReadResult & { layout?: CsvLayout } = { entries: [], skipped: [], refused: [], notes: [] }
  const delimiter = options.delimiter ?? detectDelimiter(text)
  let rows: { record: string[]; info: { lines: number } }[]
  try {
    rows = parse(text, { delimiter, info: true, relax_column_count: true }) as unknown as typeof rows
  } catch (error) {
    const lines = (error as { lines?: number }).lines
    result.refused.push(`${lines ? `line ${lines}: ` : ''}the file is not valid CSV: ${(error as Error).message}`)
    return result
  }
  const [header, ...records] = rows
  if (!header) {
    result.refused.push('the CSV file is empty: it needs a header row naming its columns (title, latitude, longitude, …)')
    return result
  }
  const headerText = header.record.join(', ')
  const given = options.columns ?? {}
  const column = findColumns(header.record, given, (problem) => result.refused.push(`line 1: ${problem} (${headerText})`))
  // The coordinates' decimal mark; before their columns are known, any cell's that is a number.
  const located = [column.latitude, column.longitude].filter((index) => index !== undefined)
  const numbers = records.flatMap(({ record }) => (located.length > 0 ? located.map((index) => record[index] ?? '') : record).map((cell) => cell.trim()))
  const decimalComma = options.decimalComma ?? numbers.some((cell) => /^[+-]?\d*,\d+$/.test(cell))
  result.layout = {
    header: header.record,
    delimiter,
    decimalComma,
    columns: Object.fromEntries(Object.entries(column).flatMap(([field, index]) => (index === undefined ? [] : [[field, header.record[index]!]]))),
  }
  // A column named that is not in the header was said above; a field given as '' has no column, on purpose.
  const said = (field: Field) => Boolean(given[field]) && column[field] === undefined
  const none = (field: Field) => column[field] === undefined && !said(field)
  if (none('latitude') && none('longitude')) {
    result.refused.push(
      given.latitude === '' || given.longitude === ''
        ? `line 1: no latitude and longitude columns are chosen (${headerText})`
        : `line 1: no latitude and longitude columns in the header (${headerText}): name them latitude and longitude (or lat and lng, y and x)`,
    )
  } else if (none('latitude') !== none('longitude') && !said('latitude') && !said('longitude')) {
    result.refused.push(
      `line 1: the header (${headerText}) has a ${none('latitude') ? 'longitude' : 'latitude'} column but no ${none('latitude') ? 'latitude' : 'longitude'} column`,
    )
  }
  if (none('title')) {
    result.refused.push(
      given.title === ''
        ? `line 1: no title column is chosen (${headerText})`
        : `line 1: no title column in the header (${headerText}): name it title (or name)`,
    )
  }
  if (result.refused.length > 0) return result
  const read = new Set(Object.values(column))
  const unread = header.record.filter((name, index) => !read.has(index) && name.trim() && !WRITTEN_NOT_READ.has(normalise(name)))
  if (unread.length > 0) result.notes.push(`columns not read: ${unread.join(', ')}`)

  let lastLine = header.info.lines
  for (const { record, info } of records) {
    const line = lastLine + 1 // where the record starts: a quoted field may span lines
    lastLine = info.lines
    if (record.every((value) => value.trim() === '')) continue
    const cell = (field: Field) => {
      const index = column[field]
      return index === undefined ? undefined : record[index]
    }
    // Text as it was before `places export` kept spreadsheets from running it (escapeFormula); numbers are not escaped.
    const text = (field: Field) => {
      const value = cell(field)
      return value === undefined ? undefined : unescapeFormula(value)
    }
    const latitudeText = cell('latitude')?.trim() ?? ''
    const longitudeText = cell('longitude')?.trim() ?? ''
    let geometry: { type: 'Point'; coordinates: number[] } | null = null
    if (latitudeText !== '' || longitudeText !== '') {
      const latitude = parseDecimal(latitudeText, options.decimalComma)
      const longitude = parseDecimal(longitudeText, options.decimalComma)
      const mark = options.decimalComma === undefined ? '' : ` with a decimal ${options.decimalComma ? 'comma' : 'point'}`
      const bad = [
        latitude === undefined ? `latitude: "${latitudeText}" is not a decimal number${mark}` : null,
        longitude === undefined ? `longitude: "${longitudeText}" is not a decimal number${mark}` : null,
      ].filter(Boolean)
      if (latitude === undefined || longitude === undefined) {
        result.refused.push(
          `line ${line}: ${bad.join('; ')}${latitudeText === '' || longitudeText === '' ? ' (give both, or neither for a post without a location)' : ''}`,
        )
        continue
      }
      if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
        result.refused.push(
          `line ${line}: ${Math.abs(latitude) > 90 ? `latitude ${latitude} is not from -90 to 90` : `longitude ${longitude} is not from -180 to 180`}`,
        )
        continue
      }
      geometry = { type: 'Point', coordinates: [longitude, latitude] }
    }
    const properties: Record<string, unknown> = { title: text('title') ?? '' }
    for (const field of ['content', 'excerpt', 'address', 'slug', 'type', 'date', 'author'] as const) {
      const value = text(field)
      // An empty cell is a value not given: the import's default, as a missing property in GeoJSON.
      if (value !== undefined && value.trim() !== '') properties[field] = field === 'content' ? value : value.trim()
    }
    properties.categories = splitCategories(text('categories') ?? '')
    properties.tags = (text('tags') ?? '').split(',').filter((name) => name.trim() !== '')
    result.entries.push({ feature: { type: 'Feature', geometry, properties }, label: `line ${line}` })
  }
  return result
}

/**
 * Each field's column: the one `given` names (its header as written, else ignoring case), else the first of
 * CSV_COLUMNS's names among the columns not given to another field. A name given that is no column is a problem.
 */
function findColumns(header: string[], given: Partial<Record<Field, string>>, problem: (text: string) => void): Record<Field, number | undefined> {
  const column = {} as Record<Field, number | undefined>
  for (const [field, name] of Object.entries(given) as [Field, string][]) {
    const wanted = name.trim()
    if (wanted === '') continue
    let index = header.findIndex((h) => h.trim() === wanted)
    if (index < 0) index = header.findIndex((h) => h.trim().toLowerCase() === wanted.toLowerCase())
    if (index < 0) problem(`the ${field} column "${name}" is not in the header`)
    else column[field] = index
  }
  const taken = new Set(Object.values(column))
  const names = header.map(normalise)
  for (const [field, aliases] of Object.entries(CSV_COLUMNS) as [Field, readonly string[]][]) {
    if (field in given) continue
    column[field] = aliases.map((alias) => names.findIndex((name, index) => name === alias && !taken.has(index))).find((index) => index >= 0)
  }
  return column
}
