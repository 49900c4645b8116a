import 'server-only'
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { z } from 'zod'
import { canImport, canManageUsers, type Actor } from '../auth/capabilities'
import { bodyLimit } from '../http/body-limit'
import { ApiError, forbidden } from '../http/errors'
import { incomingPath } from '../media/store'
import { CSV_FIELDS, DELIMITERS, type CsvField, type CsvLayout, type CsvOptions } from '../places/formats/csv'
import { detectFormat } from '../places/formats/detect'
import { formatName, readHead, readImportFile, type ImportFile } from '../places/formats/read'
import { importPlaces } from '../places/import'
import { importWxr, type WxrSummary } from '../wxr/import'
import type { AdminActor } from './session'

// The admin's Import screen (README, "Import"): a file is uploaded once, kept under UPLOADS_DIR/incoming for this
// user alone, read as often as its summary is asked for (a CSV file with other columns, delimiter or decimal mark),
// then imported all or nothing, as `places import` and `places import-wxr` do, and removed.

/** The largest file the screen takes (a CSV file is read whole, in the server's memory); `places import` reads any size. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024

/** An upload left behind (a screen closed before importing) is removed a day after. */
const KEPT_MS = 24 * 3_600_000

export type ImportPreview =
  | {
      kind: 'places'
      /** GeoJSON, KML, KMZ, GPX or CSV */
      format: string
      /** what one entry is: feature, placemark, waypoint, row */
      item: string
      /** posts the import makes (none while there are problems) */
      posts: number
      /** each problem, naming its line, placemark or feature: nothing is imported while there is one */
      problems: string[]
      skipped: string[]
      notes: string[]
      layout?: CsvLayout
      /** the trip a GPX or KML file's lines make (docs/trips.md): its title, each line named, and once written its slug */
      trip?: { title: string; lines: string[]; slug?: string }
    }
  | { kind: 'wxr'; summary: Omit<WxrSummary, 'ids'>; mayAddUsers: boolean }

export type ImportResult = { kind: 'places'; ids: number[]; trip?: { title: string; slug: string } } | { kind: 'wxr'; summary: Omit<WxrSummary, 'ids'> }

const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const unknownUpload = () => new ApiError('rest_invalid_param', 'That upload is not known: upload the file again.')

/** The user's uploaded file: its name holds their id, so that a token alone opens no one else's. */
function fileOf(actor: Actor, token: string): string {
  if (!TOKEN.test(token)) throw unknownUpload()
  return incomingPath(`import-${actor.id}-${token}`)
}

function authorise(actor: Actor | null): asserts actor is Actor {
  if (!canImport(actor)) throw forbidden()
}

/** Keeps an uploaded file for the screen; its token names it from then on. Refuses a file over IMPORT_MAX_BYTES. */
export async function saveImportUpload(actor: Actor | null, body: AsyncIterable<Uint8Array>): Promise<string> {
  authorise(actor)
  await mkdir(incomingPath(), { recursive: true, mode: 0o700 })
  await removeOldUploads(actor)
  const token = randomUUID()
  const file = fileOf(actor, token)
  try {
    const tooBig = `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB, the most this screen takes: import it with places import on the server.`
    await pipeline(body, bodyLimit(IMPORT_MAX_BYTES, tooBig), createWriteStream(file, { flags: 'wx', mode: 0o600 }))
  } catch (error) {
    await rm(file, { force: true })
    throw error
  }
  return token
}

/** One upload a user: their earlier one goes (not one being imported); anyone's older than a day too. */
async function removeOldUploads(actor: Actor): Promise<void> {
  const folder = incomingPath()
  for (const name of await readdir(folder)) {
    if (!name.startsWith('import-') || name.endsWith(IMPORTING)) continue
    const file = `${folder}/${name}`
    const info = await stat(file).catch(() => null)
    if (name.startsWith(`import-${actor.id}-`) || (info && Date.now() - info.mtimeMs > KEPT_MS)) await rm(file, { force: true })
  }
}

/** What the screen sends: the upload's token and its file's name, and how to read a CSV file. */
const requestSchema = z.strictObject({
  token: z.string().regex(TOKEN),
  name: z
    .string()
    .max(255)
    .transform((name) => name.replace(/[\u0000-\u001f]/g, '') || 'the file'),
  csv: z
    .strictObject({
      columns: z.partialRecord(z.enum(CSV_FIELDS as [CsvField, ...CsvField[]]), z.string().max(500)).optional(),
      delimiter: z.enum(DELIMITERS).optional(),
      decimalComma: z.boolean().optional(),
    })
    .default({}),
})
export type ImportRequest = z.input<typeof requestSchema>

function parseRequest(input: unknown): z.output<typeof requestSchema> {
  const parsed = requestSchema.safeParse(input)
  if (!parsed.success) throw unknownUpload()
  return parsed.data
}

/** What a file being imported is renamed to: a second request to import it finds no file. */
const IMPORTING = '.importing'

/**
 * Imports and their summaries, one at a time in this process: each locks the tables it writes for as long as it runs,
 * and a CSV file is read whole into memory.
 */
let queue: Promise<unknown> = Promise.resolve()
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work)
  queue = next.catch(() => undefined)
  return next
}

/** What importing the upload would do, found by importing it and rolling back: nothing is written. */
export async function previewImport(actor: AdminActor, input: ImportRequest): Promise<ImportPreview> {
  const { token, name, csv } = parseRequest(input)
  authorise(actor)
  const file = fileOf(actor, token)
  return await oneAtATime(() => importUpload(actor, file, name, csv, true))
}

/** Imports the upload, all or nothing, then removes it; a refused file is kept, to be read again with other options. */
export async function runImport(actor: AdminActor, input: ImportRequest): Promise<ImportResult> {
  const { token, name, csv } = parseRequest(input)
  authorise(actor)
  const file = fileOf(actor, token)
  const claimed = `${file}${IMPORTING}`
  await rename(file, claimed).catch(() => {
    throw unknownUpload()
  })
  try {
    const done = await oneAtATime(() => importUpload(actor, claimed, name, csv, false))
    await rm(claimed, { force: true })
    return done.kind === 'wxr'
      ? { kind: 'wxr', summary: done.summary }
      : { kind: 'places', ids: done.ids, ...(done.trip?.slug ? { trip: { title: done.trip.title, slug: done.trip.slug } } : {}) }
  } catch (error) {
    await rename(claimed, file).catch(() => undefined)
    throw error
  }
}

/** Removes the upload: the screen was cancelled. */
export async function discardImport(actor: AdminActor, input: ImportRequest): Promise<void> {
  authorise(actor)
  await rm(fileOf(actor, parseRequest(input).token), { force: true })
}

/** Imports `file` (the user's upload, under `name` in messages), or with `dryRun` says what that would do. */
async function importUpload(
  actor: AdminActor,
  file: string,
  name: string,
  csv: CsvOptions,
  dryRun: boolean,
): Promise<(Extract<ImportPreview, { kind: 'places' }> & { ids: number[] }) | Extract<ImportPreview, { kind: 'wxr' }>> {
  // Messages name the file as its user knows it, never where the server keeps it.
  const renamed = (error: unknown) => (error instanceof ApiError ? new ApiError(error.code, error.message.replaceAll(file, name)) : error)
  try {
    return await importNamed(actor, file, name, csv, dryRun, renamed)
  } catch (error) {
    throw renamed(error)
  }
}

async function importNamed(
  actor: AdminActor,
  file: string,
  name: string,
  csv: CsvOptions,
  dryRun: boolean,
  renamed: (error: unknown) => unknown,
): Promise<(Extract<ImportPreview, { kind: 'places' }> & { ids: number[] }) | Extract<ImportPreview, { kind: 'wxr' }>> {
  // What a dry run says of a refused file: each problem, and nothing to import.
  const refusal = (error: unknown) => {
    if (!dryRun || !(error instanceof ApiError) || error.code !== 'places_invalid_import') throw error
    return (renamed(error) as ApiError).message.split('\n').filter((line, i) => line.trim() !== '' && !(i === 0 && line.startsWith('Nothing was imported')))
  }
  // Another user's token names no file of this one's.
  if (!(await stat(file).catch(() => null))) throw unknownUpload()
  if (detectFormat(await readHead(file)) === 'wxr') {
    const mayAddUsers = canManageUsers(actor)
    // A WordPress export adds its authors as users: only who may add users imports one.
    if (!mayAddUsers && !dryRun) throw forbidden()
    const { ids: _ids, ...summary } = await importWxr(file, { dryRun })
    return { kind: 'wxr', summary, mayAddUsers }
  }
  let read: ImportFile
  try {
    read = await readImportFile(file, csv, name)
  } catch (error) {
    // Not readable at all: a KMZ without KML, XML that is neither KML nor GPX.
    return { kind: 'places', format: 'unknown', item: 'entry', posts: 0, problems: refusal(error), skipped: [], notes: [], ids: [] }
  }
  const trip = read.trip && { title: read.trip.title, lines: read.lines ?? [] }
  const base = {
    kind: 'places' as const,
    format: formatName(read.format),
    item: read.item,
    skipped: read.skipped,
    notes: read.notes,
    layout: read.layout,
    trip,
  }
  try {
    let slug: string | undefined
    const notes = [...read.notes]
    const ids = await importPlaces(read.source, {
      defaultAuthor: actor.email,
      labelOf: read.labelOf,
      refused: read.refused,
      dryRun,
      trip: read.trip,
      onTrip: (written) => (slug = written.slug),
      onMissingTrips: (slugs) => notes.push(`No trip here has the slug ${slugs.join(', ')}: the posts naming it are on no trip.`),
    })
    return { ...base, notes, trip: trip && { ...trip, slug: dryRun ? undefined : slug }, posts: ids.length, problems: [], ids }
  } catch (error) {
    return { ...base, posts: 0, problems: refusal(error), ids: [] }
  }
}
