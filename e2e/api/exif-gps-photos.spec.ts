import { readFile } from 'node:fs/promises'
import { ExifTool } from 'exiftool-vendored'
import { readGps } from '../../lib/media/exif-gps'
import { basic } from '../support/auth'
import { execSql } from '../support/db'
import { expectWordPressError } from '../support/http'
import {
  corpusFile,
  expectedMimeTypes,
  locationTags,
  originalPath,
  PHOTOS,
  publicPath,
  truth,
  truthOf,
  upload,
  uploadOrThrow,
  type TruthRow,
  type UploadedAttachment,
} from '../support/media'
import { createAppPassword, createUser, importPosts, runId, type ImportFeature, type ServerEnv } from '../support/places-cli'
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from '../support/test'

// Every real photo of test/fixtures/exif through the real upload route (POST /places/v1/media), the GPS the app
// stored against ExifTool's ground truth (truth.json, to 1e-6 degrees), and GET /attachment-exif-gps/{id} for a post
// with only that photo. Then which image is "first" (docs/api.md, Ordering: position, then upload time, then id,
// ascending; only images; docs/api.md, Types in the attachment GPS result: 0,0 and out-of-range coordinates count as missing).

// Uploads run ExifTool on the server: give them room on a busy machine.
test.describe.configure({ timeout: 90_000 })

const TOLERANCE = 1e-6
const ORDERING_POSTS = ['second has gps', 'position', 'skips', 'corrupt', 'none', 'empty'] as const

let server: ServerEnv
let authorization: string
let exiftool: ExifTool
const corpusPosts = new Map<string, number>()
const orderingPosts = new Map<(typeof ORDERING_POSTS)[number], number>()
/** the upload of each photo, once its test has made it */
const uploaded = new Map<string, UploadedAttachment>()

test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(300_000)
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
  const run = runId()
  const email = `gps-photos-${run}@e2e.test`
  await createUser(server, email, `gps-photos-password-${run}`, 'author')
  authorization = basic(email, await createAppPassword(server, email, `photos-${run}`))
  // The author's own drafts and published posts of this spec's post type, without geodata.
  const features: ImportFeature[] = [
    ...truth.map((row) => ({
      type: 'Feature' as const,
      geometry: null,
      properties: { title: `gps photo ${row.file} ${run}`, type: 'gpstest', status: 'publish' },
    })),
    ...ORDERING_POSTS.map((name) => ({
      type: 'Feature' as const,
      geometry: null,
      properties: { title: `gps order ${name} ${run}`, type: 'gpstest', status: 'draft' },
    })),
  ]
  const ids = await importPosts(server, features, email)
  truth.forEach((row, i) => corpusPosts.set(row.file, ids[i]!))
  ORDERING_POSTS.forEach((name, i) => orderingPosts.set(name, ids[truth.length + i]!))
  exiftool = new ExifTool({ maxProcs: 1, taskTimeoutMillis: 30_000 })
})

test.afterAll(async () => {
  await exiftool?.end()
})

const route = (postId: number) => `/places/v1/attachment-exif-gps/${postId}`

function expectClose(actual: unknown, expected: number | null, what: string): void {
  expect(typeof actual, `${what} is a JSON number`).toBe('number')
  expect(Math.abs((actual as number) - expected!), `${what}: ${String(actual)} vs ExifTool's ${expected}`).toBeLessThanOrEqual(TOLERANCE)
}

async function uploadPhoto(request: APIRequestContext, postId: number, file: string, title?: string): Promise<UploadedAttachment> {
  return uploadOrThrow(request, postId, corpusFile(file), file, { authorization, title })
}

/** GET /attachment-exif-gps/{id}, which must answer 200 with this attachment and the GPS of this photo. */
async function expectGps(request: APIRequestContext, postId: number, attachment: UploadedAttachment, row: TruthRow): Promise<void> {
  const response = await request.get(route(postId), { headers: { Authorization: authorization } })
  const text = await response.text()
  expect(response.status(), `post ${postId}: ${text}`).toBe(200)
  const body = JSON.parse(text)
  expect(Object.keys(body).sort()).toEqual(['attachment_id', 'attachment_title', 'latitude', 'longitude'])
  expect(body.attachment_id, `the attachment of ${row.file}`).toBe(attachment.id)
  expect(body.attachment_title).toBe(attachment.title)
  expectClose(body.latitude, row.latitude, `${row.file} latitude`)
  expectClose(body.longitude, row.longitude, `${row.file} longitude`)
}

/** GET /attachment-exif-gps/{id}, which must answer 404 rest_no_exif_gps saying how many images were looked at. */
async function expectNoGps(request: APIRequestContext, postId: number, images: number): Promise<void> {
  const response = await request.get(route(postId), { headers: { Authorization: authorization } })
  const body = await expectWordPressError(response, 404, 'rest_no_exif_gps', { cors: false })
  expect(body.message, 'the message says how many images were looked at').toMatch(new RegExp(`\\b${images} images?\\b`))
  expect(body.message).not.toMatch(new RegExp(`\\b(?!${images}\\b)\\d+ images?\\b`))
}

test.describe('every photo of the corpus, uploaded over HTTP', () => {
  for (const row of truth) {
    test(`${row.file}: stored GPS ${row.has_gps ? `${row.latitude}, ${row.longitude}` : 'none'}, and the route's answer`, async ({ request }) => {
      const postId = corpusPosts.get(row.file)!
      const bytes = corpusFile(row.file)
      const attachment = await uploadPhoto(request, postId, row.file)
      uploaded.set(row.file, attachment)
      expect(expectedMimeTypes(row.file)).toContain(attachment.mimeType)
      expect(attachment.size).toBe(bytes.length)
      if (row.has_gps) {
        expectClose(attachment.latitude, row.latitude, 'stored latitude')
        expectClose(attachment.longitude, row.longitude, 'stored longitude')
        await expectGps(request, postId, attachment, row)
      } else {
        expect(attachment.latitude, 'no usable GPS: stored as null').toBeNull()
        expect(attachment.longitude, 'no usable GPS: stored as null').toBeNull()
        await expectNoGps(request, postId, 1)
      }
    })
  }

  for (const row of truth) {
    test(`${row.file}: the copy visitors load has no location metadata; the original keeps the file as sent`, async ({ request, uploadsDir }) => {
      const bytes = corpusFile(row.file)
      const attachment = uploaded.get(row.file) ?? (await uploadPhoto(request, corpusPosts.get(row.file)!, row.file))
      // The original, byte for byte, with its GPS.
      const original = await readFile(originalPath(uploadsDir, attachment.url))
      expect(original.equals(bytes), 'the original is the uploaded file').toBe(true)
      // What a visitor loads at `url` (the post is published): the public copy, without any location.
      const response = await request.get(attachment.url)
      expect(response.status(), attachment.url).toBe(200)
      expect(expectedMimeTypes(row.file)).toContain(response.headers()['content-type'])
      const served = await response.body()
      expect(served.equals(await readFile(publicPath(uploadsDir, attachment.url))), 'what is served is the public copy').toBe(true)
      expect(readGps(served), 'no EXIF GPS in what visitors load').toBeNull()
      expect(await locationTags(exiftool, publicPath(uploadsDir, attachment.url)), 'ExifTool finds no location in the public copy').toEqual([])
      if (row.has_gps) expect(served.equals(bytes), 'a photo with GPS is not served as uploaded').toBe(false)
    })
  }
})

test.describe('the first image with GPS', () => {
  test("an image without GPS, then one with: the second one's GPS, id and title", async ({ request }) => {
    const postId = orderingPosts.get('second has gps')!
    const first = await uploadPhoto(request, postId, PHOTOS.noExif, 'first, without GPS')
    const second = await uploadPhoto(request, postId, PHOTOS.nikon, 'second, with GPS')
    expect(first.latitude).toBeNull()
    expect(second.position, 'a later upload comes after').toBeGreaterThan(first.position)
    await expectGps(request, postId, second, truthOf(PHOTOS.nikon))
  })

  test('two images with GPS: the first uploaded; an explicit position beats upload order; then upload time, then id', async ({ request, databaseUrl }) => {
    // No route or command reorders attachments (WordPress's menu_order); a WordPress import could bring any order.
    // The positions and upload times are therefore set in the database directly.
    const postId = orderingPosts.get('position')!
    const a = await uploadPhoto(request, postId, PHOTOS.scaled, 'A, uploaded first')
    const b = await uploadPhoto(request, postId, PHOTOS.nikon, 'B, uploaded second')
    expect(a.id).toBeLessThan(b.id)
    await expectGps(request, postId, a, truthOf(PHOTOS.scaled))

    await execSql(databaseUrl, 'UPDATE attachments SET position = ? WHERE id = ?', [7, a.id])
    await execSql(databaseUrl, 'UPDATE attachments SET position = ? WHERE id = ?', [3, b.id])
    await expectGps(request, postId, b, truthOf(PHOTOS.nikon)) // position 3 before 7, though uploaded later

    await execSql(databaseUrl, 'UPDATE attachments SET position = ? WHERE id = ?', [-2, a.id])
    await expectGps(request, postId, a, truthOf(PHOTOS.scaled)) // positions may be negative

    // Same position: the earlier upload time wins, whatever the ids.
    await execSql(databaseUrl, 'UPDATE attachments SET position = ? WHERE post_id = ?', [5, postId])
    await execSql(databaseUrl, 'UPDATE attachments SET created_at = ? WHERE id = ?', ['2021-03-04T05:06:07.000+00:00', a.id])
    await execSql(databaseUrl, 'UPDATE attachments SET created_at = ? WHERE id = ?', ['2020-03-04T05:06:07.000+00:00', b.id])
    await expectGps(request, postId, b, truthOf(PHOTOS.nikon))

    // Same position and upload time: the lower id.
    await execSql(databaseUrl, 'UPDATE attachments SET created_at = ? WHERE post_id = ?', ['2020-03-04T05:06:07.000+00:00', postId])
    await expectGps(request, postId, a, truthOf(PHOTOS.scaled))
  })

  test('images whose GPS is 0,0 (FLIR, Samsung) or empty are skipped', async ({ request }) => {
    const postId = orderingPosts.get('skips')!
    for (const file of [PHOTOS.flir, PHOTOS.samsungZero, PHOTOS.heic487, PHOTOS.nikonD5000, PHOTOS.broken1, PHOTOS.noExif]) {
      const skipped = await uploadPhoto(request, postId, file)
      expect(skipped.latitude, `${file} has no usable GPS`).toBeNull()
      expect(skipped.longitude, `${file} has no usable GPS`).toBeNull()
    }
    await expectNoGps(request, postId, 6)
    const withGps = await uploadPhoto(request, postId, PHOTOS.samsungNote, 'the only one with GPS')
    await expectGps(request, postId, withGps, truthOf(PHOTOS.samsungNote))
  })

  test('a corrupt image (a real JPEG cut after 2 KB) is refused (it does not decode), never crashes, and counts for nothing', async ({ request }) => {
    const postId = orderingPosts.get('corrupt')!
    const cut = corpusFile(PHOTOS.iphone4).subarray(0, 2048)
    expect(readGps(corpusFile(PHOTOS.iphone4)), 'the whole file has GPS').not.toBeNull()
    const corrupt = await upload(request, postId, cut, 'cut.jpg', { authorization, title: 'cut after 2 KB' })
    await expectWordPressError(corrupt, 422, 'rest_upload_unknown_error', { cors: false })
    await expectNoGps(request, postId, 0)
    const good = await uploadPhoto(request, postId, PHOTOS.nikon, 'whole')
    await expectGps(request, postId, good, truthOf(PHOTOS.nikon))
  })

  test('no image with GPS: 404 rest_no_exif_gps saying how many images were looked at; only images count', async ({ request, databaseUrl }) => {
    const postId = orderingPosts.get('none')!
    const images = [PHOTOS.flir, PHOTOS.nikonD5000, PHOTOS.noExif]
    for (const file of images) await uploadPhoto(request, postId, file)
    await expectNoGps(request, postId, 3)
    // An attachment that is not an image is not looked at, GPS or not, first or not. No route stores one (uploads
    // must be images), but an imported site may have them: written to the database directly.
    await execSql(
      databaseUrl,
      'INSERT INTO attachments (post_id, position, title, file_path, mime_type, size, latitude, longitude, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [postId, -5, 'a PDF with a location', `gpstest/${postId}-${runId()}.pdf`, 'application/pdf', 1234, 10.5, 20.5, '2000-01-01T00:00:00.000+00:00'],
    )
    await expectNoGps(request, postId, 3)
  })

  test('a post without attachments: 404 rest_no_exif_gps, 0 images looked at', async ({ request }) => {
    await expectNoGps(request, orderingPosts.get('empty')!, 0)
  })
})
