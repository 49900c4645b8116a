import { readdir, readFile, stat } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import path from 'node:path'
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test'
import type { ExifTool } from 'exiftool-vendored'
import type { AttachmentDto } from '../../lib/media/storage'
import { querySql } from './db'

// Uploads through POST /places/v1/media, the real-photo corpus of test/fixtures/exif, and what lands on disk.

export const CORPUS_DIR = path.resolve(__dirname, '..', '..', 'test', 'fixtures', 'exif')

/** One row of test/fixtures/exif/truth.json: ExifTool's reading, with the spec's rules on coordinates applied. */
export type TruthRow = { file: string; has_gps: boolean; latitude: number | null; longitude: number | null }

export const truth = JSON.parse(readFileSync(path.join(CORPUS_DIR, 'truth.json'), 'utf8')) as TruthRow[]

export function corpusFile(name: string): Buffer {
  return readFileSync(path.join(CORPUS_DIR, name))
}

export function truthOf(name: string): TruthRow {
  const row = truth.find((r) => r.file === name)
  if (!row) throw new Error(`${name} is not in truth.json`)
  return row
}

/** Corpus files with a known role in the ordering tests (test/fixtures/exif/README.md). */
export const PHOTOS = {
  /** small JPEG with GPS: 44.4207431, 8.9393332 */
  nikon: 'epy_nikon_D3100_TypeError.jpg',
  /** small JPEG with GPS: -38.4051948, 144.1889580 */
  scaled: 'gox_gps-2000-scaled.jpg',
  /** JPEG with GPS: 26.5866667, -80.0536111 */
  samsungNote: 'gox_gps.jpg',
  /** JPEG with GPS, whose GPS lies past its first 2 KB (cut there, it has none) */
  iphone4: 'mei_Apple iPhone 4.jpg',
  /** GPS IFD at 0,0 (no fix) */
  flir: 'mei_FLIR Vue Pro 640.jpg',
  /** GPS IFD at 0,0 (no fix) */
  samsungZero: 'mei_Samsung GT-I9000 (Galaxy S).jpg',
  /** GPS IFD with empty coordinates (and GPS in XMP only) */
  nikonD5000: 'mei_Nikon D5000.jpg',
  /** GPS IFD without coordinates */
  broken1: 'exr_broken1.jpg',
  /** HEIC with a GPS IFD with empty coordinates */
  heic487: 'mei_Issue 487.heic',
  /** JPEG without EXIF */
  noExif: 'exr_noexif.jpg',
} as const

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.avif': 'image/avif',
}

/** The MIME types the app may report for a file with this extension (HEIF files may say heic or heif). */
export function expectedMimeTypes(name: string): string[] {
  const ext = path.extname(name).toLowerCase()
  if (ext === '.heic') return ['image/heic', 'image/heif']
  const type = CONTENT_TYPES[ext]
  if (!type) throw new Error(`no MIME type known for ${name}`)
  return [type]
}

export type UploadOptions = {
  authorization?: string
  origin?: string
  title?: string
  /** Content-Disposition as sent; by default `attachment; filename="<filename>"` */
  disposition?: string
  contentType?: string
}

/** POST /places/v1/media?post=ID[&title=T] with the raw file as the body, as WordPress's POST /wp/v2/media takes it. */
export function upload(request: APIRequestContext, postId: number | string, body: Buffer, filename: string, options: UploadOptions = {}): Promise<APIResponse> {
  const query = new URLSearchParams({ post: String(postId) })
  if (options.title !== undefined) query.set('title', options.title)
  const headers: Record<string, string> = {
    'Content-Type': options.contentType ?? CONTENT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream',
    'Content-Disposition': options.disposition ?? `attachment; filename="${filename}"`,
  }
  if (options.authorization) headers.Authorization = options.authorization
  if (options.origin) headers.Origin = options.origin
  return request.post(`/places/v1/media?${query}`, { data: body, headers, maxRedirects: 0 })
}

/**
 * A real JPEG (without EXIF) with `marker` in a comment just after its start: still the same image, and the first
 * bytes an upload of it sends name it.
 */
function jpegMarkedFirst(marker: string): Buffer {
  const photo = corpusFile(PHOTOS.noExif)
  const comment = Buffer.from(marker)
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]), comment])
  return Buffer.concat([photo.subarray(0, 2), segment, photo.subarray(2)])
}

/** An answer read with node:http. */
export type RawAnswer = { status: number; headers: IncomingHttpHeaders; body: string }

/** An upload under way whose body is sent only in part: the server holds it until `finish()` or `abort()`. */
export type HeldUpload = {
  /** sends the rest of the body; the answer */
  finish: () => Promise<RawAnswer>
  /** cuts the connection, as a client that goes away */
  abort: () => void
}

/**
 * POST /places/v1/media of a real JPEG with `marker` near its start, by node:http (Playwright sends a body whole): the
 * bytes up to the end of the marker are sent, the rest held back. Resolves once the server is storing it (a file in
 * incoming/ holds the marker): the upload is certainly running, whatever the machine's speed.
 */
export async function holdUpload(server: { baseURL: string; uploadsDir: string }, postId: number, marker: string, authorization: string): Promise<HeldUpload> {
  const body = jpegMarkedFirst(marker)
  const request = httpRequest(new URL(`/places/v1/media?post=${postId}`, server.baseURL), {
    method: 'POST',
    agent: false,
    headers: {
      Authorization: authorization,
      'Content-Type': 'image/jpeg',
      'Content-Disposition': 'attachment; filename="held.jpg"',
      'Content-Length': String(body.length),
    },
  })
  let answered: RawAnswer | null = null
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve((answered = { status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() })))
      response.on('error', reject)
    })
    request.on('error', reject)
  })
  // An aborted upload's answer is the error of its own abort.
  answer.catch(() => {})
  const split = body.indexOf(marker) + marker.length
  request.write(body.subarray(0, split))
  const incoming = path.resolve(server.uploadsDir, 'incoming')
  await expect
    .poll(
      async () =>
        answered ? `answered ${answered.status}: ${answered.body}` : (await filesContaining(incoming, marker)).length > 0 ? 'in incoming/' : 'not yet',
      { message: `the held upload ${marker} reaches the server`, timeout: 30_000 },
    )
    .toBe('in incoming/')
  return {
    finish: () => {
      request.end(body.subarray(split))
      return answer
    },
    abort: () => request.destroy(),
  }
}

/** What POST /places/v1/media answers with 201. */
export type UploadedAttachment = AttachmentDto

/** An upload that must succeed: 201 and exactly the fields of an attachment, of the right types. */
export async function uploadOrThrow(
  request: APIRequestContext,
  postId: number,
  body: Buffer,
  filename: string,
  options: UploadOptions = {},
): Promise<UploadedAttachment> {
  const response = await upload(request, postId, body, filename, options)
  const text = await response.text()
  expect(response.status(), `upload of ${filename} to post ${postId}: ${text.slice(0, 300)}`).toBe(201)
  const attachment = JSON.parse(text) as UploadedAttachment
  expect(Object.keys(attachment).sort()).toEqual([
    'altText',
    'caption',
    'id',
    'latitude',
    'locationSource',
    'longitude',
    'mimeType',
    'position',
    'postId',
    'size',
    'thumbnailUrl',
    'title',
    'url',
  ])
  expect(typeof attachment.id).toBe('number')
  expect(attachment.postId).toBe(postId)
  expect(attachment.locationSource, 'an upload’s point is its file’s GPS').toBe(attachment.latitude === null ? null : 'gps')
  return attachment
}

/** `http://host/uploads/2026/05/ab12cd34-name.jpg` → `2026/05/ab12cd34-name.jpg`, the path in both upload trees. */
export function relativeUploadPath(url: string): string {
  const { pathname } = new URL(url)
  expect(pathname, 'an attachment url is /uploads/YYYY/MM/name').toMatch(/^\/uploads\/\d{4}\/\d{2}\/[^/]+$/)
  return decodeURIComponent(pathname.slice('/uploads/'.length))
}

export function originalPath(uploadsDir: string, url: string): string {
  return path.resolve(uploadsDir, 'originals', relativeUploadPath(url))
}

export function publicPath(uploadsDir: string, url: string): string {
  return path.resolve(uploadsDir, 'public', relativeUploadPath(url))
}

async function walk(dir: string, depth: number): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  const files = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory() ? (depth > 0 ? walk(path.join(dir, entry.name), depth - 1) : Promise.resolve([])) : Promise.resolve([path.join(dir, entry.name)]),
    ),
  )
  return files.flat()
}

/**
 * Every file under `dir` (the uploads folder: originals/, public/, incoming/ and anything else) whose bytes contain
 * `marker`: a unique marker finds what one upload left, whatever other uploads run at the same time.
 */
export async function filesContaining(dir: string, marker: string): Promise<string[]> {
  return (await filesContainingEach(dir, [marker])).get(marker) ?? []
}

/** For each marker, the files under `dir` (`depth` folders deep; 0: only its own files) that contain it. */
export async function filesContainingEach(dir: string, markers: string[], depth = Infinity): Promise<Map<string, string[]>> {
  const found = new Map(markers.map((marker) => [marker, [] as string[]]))
  for (const file of await walk(path.resolve(dir), depth)) {
    const info = await stat(file).catch(() => null)
    if (!info?.isFile() || info.size > 64 * 1024 * 1024) continue
    const bytes = await readFile(file).catch(() => null)
    if (!bytes) continue
    for (const marker of markers) if (bytes.includes(Buffer.from(marker))) found.get(marker)!.push(file)
  }
  return found
}

/** Tag names that carry where a photo was taken: GPS tags of any group, ISO 6709 strings, location names. */
const LOCATION_TAG = /GPS|Location|ISO6709/i

/**
 * The location metadata ExifTool finds in a file, every group and duplicate included (`-a -G1 -n`), as
 * `group:tag=value`; empty values (a GPS block without coordinates) are listed too.
 */
export async function locationTags(exiftool: ExifTool, file: string): Promise<string[]> {
  const tags = await exiftool.readRaw<Record<string, unknown>>(file, { readArgs: ['-a', '-G1', '-n'] })
  return Object.entries(tags)
    .filter(([key]) => key !== 'SourceFile' && LOCATION_TAG.test(key.split(':').at(-1) ?? key))
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
}

/** The file names of an attachment's sizes (lib/media/renditions.ts), as served under /uploads/renditions/. */
export async function renditionNames(databaseUrl: string, attachmentId: number): Promise<string[]> {
  const sql = 'SELECT "file_name" AS "fileName" FROM "attachment_renditions" WHERE "attachment_id" = ? ORDER BY "id"'
  return (await querySql<{ fileName: string }>(databaseUrl, sql, [attachmentId])).map((row) => row.fileName)
}
