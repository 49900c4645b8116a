import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { APIRequestContext } from '@playwright/test'
import sharp from 'sharp'
import { readGps } from '../../lib/media/exif-gps'
import { basic, expectPrivateNoStore, signInOrThrow } from '../support/auth'
import { execSql } from '../support/db'
import { expectWordPressError } from '../support/http'
import {
  corpusFile,
  filesContaining,
  filesContainingEach,
  originalPath,
  PHOTOS,
  publicPath,
  relativeUploadPath,
  renditionNames,
  truthOf,
  upload,
  uploadOrThrow,
} from '../support/media'
import { createAppPassword, createUser, importPosts, runId, type Role, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'

// POST /places/v1/media (raw file body, name in Content-Disposition, ?post=ID[&title=T]; needs upload_files and
// edit_post on the post; the file must decode as an image) and GET /uploads/… (the copy visitors load: without location metadata; a post that is not published shows
// its images only to those who may edit it).

// Uploads run ExifTool on the server: give them room on a busy machine.
test.describe.configure({ timeout: 90_000 })

type Who = 'author' | 'editor' | 'contributor' | 'subscriber'
const PEOPLE: Record<Who, Role> = { author: 'author', editor: 'editor', contributor: 'contributor', subscriber: 'subscriber' }
type Person = { email: string; password: string; appPassword: string }
const POSTS = [
  'published',
  'draft',
  'invalid type',
  'traversal',
  'contributor draft',
  'contributor published',
  'unpublished later',
  'sizes',
  'damaged',
  'heic',
] as const

let server: ServerEnv
let baseURL: string
let people: Record<Who, Person>
let posts: Record<(typeof POSTS)[number], number>
const sessions: Partial<Record<Who, APIRequestContext>> = {}
let anonymous: APIRequestContext

test.beforeAll(async ({ playwright, databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(300_000)
  baseURL = String(testInfo.project.use.baseURL)
  server = { databaseUrl, uploadsDir, baseURL }
  const run = runId()
  people = {} as Record<Who, Person>
  for (const who of Object.keys(PEOPLE) as Who[]) {
    const email = `gps-media-${who}-${run}@e2e.test`
    const password = `gps-media-${who}-password-${run}`
    await createUser(server, email, password, PEOPLE[who])
    people[who] = { email, password, appPassword: await createAppPassword(server, email, `media-${run}`) }
  }
  const feature = (name: (typeof POSTS)[number], author: string, status: string) => ({
    type: 'Feature' as const,
    geometry: null,
    properties: { title: `gps media ${name} ${run}`, type: 'gpstest', status, author },
  })
  const ids = await importPosts(
    server,
    [
      feature('published', people.author.email, 'publish'),
      feature('draft', people.author.email, 'draft'),
      feature('invalid type', people.author.email, 'draft'),
      feature('traversal', people.author.email, 'draft'),
      feature('contributor draft', people.contributor.email, 'draft'),
      feature('contributor published', people.contributor.email, 'publish'),
      feature('unpublished later', people.author.email, 'publish'),
      feature('sizes', people.author.email, 'publish'),
      feature('damaged', people.author.email, 'draft'),
      feature('heic', people.author.email, 'draft'),
    ],
    people.author.email,
  )
  posts = Object.fromEntries(POSTS.map((name, i) => [name, ids[i]!])) as typeof posts
  anonymous = await playwright.request.newContext({ baseURL })
  for (const who of ['author', 'editor', 'contributor', 'subscriber'] as const) {
    sessions[who] = await signInOrThrow(playwright.request, baseURL, people[who].email, people[who].password)
  }
})

test.afterAll(async () => {
  await Promise.all([anonymous, ...Object.values(sessions)].map((context) => context?.dispose()))
})

const appPassword = (who: Who) => basic(people[who].email, people[who].appPassword)
const marker = (what: string) => `places-e2e-${what}-${runId()}${runId()}`
/** A real JPEG with a unique marker after its end: still the same image, and findable on disk. */
const markedJpeg = (mark: string) => Buffer.concat([corpusFile(PHOTOS.nikon), Buffer.from(mark)])

async function imagesLookedAt(postId: number, who: Who = 'author'): Promise<string> {
  const response = await anonymous.get(`/places/v1/attachment-exif-gps/${postId}`, { headers: { Authorization: appPassword(who) } })
  const body = await expectWordPressError(response, 404, 'rest_no_exif_gps', { cors: false })
  return /\b(\d+) images?\b/.exec(body.message)?.[1] ?? `no count in "${body.message}"`
}

test.describe('uploads: what is accepted', () => {
  test('a file that is not an image, named .jpg, is 415 rest_upload_invalid_type and leaves nothing behind', async ({ uploadsDir }) => {
    const postId = posts['invalid type']
    await uploadOrThrow(anonymous, postId, corpusFile(PHOTOS.noExif), 'real.jpg', { authorization: appPassword('author') })
    expect(await imagesLookedAt(postId)).toBe('1')
    const mark = marker('not-an-image')
    const bodies: [string, Buffer][] = [
      ['plain text', Buffer.from(`This is not an image. ${mark}\n`.repeat(40))],
      ['SVG with a script', Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><!-- ${mark} --></svg>`)],
      ['HTML', Buffer.from(`<!doctype html><html><body><script>alert(document.cookie)</script>${mark}</body></html>`)],
      ['PDF', Buffer.from(`%PDF-1.4\n1 0 obj << >> endobj\n% ${mark}\ntrailer << >>\n%%EOF\n`)],
    ]
    for (const [what, body] of bodies) {
      const response = await upload(anonymous, postId, body, 'photo.jpg', { authorization: appPassword('author'), contentType: 'image/jpeg' })
      await expectWordPressError(response, 415, 'rest_upload_invalid_type', { cors: false })
      expectPrivateNoStore(response, what)
    }
    expect(await filesContaining(uploadsDir, mark), 'no file under originals/, public/ or incoming/').toEqual([])
    expect(await imagesLookedAt(postId), 'no attachment was added').toBe('1')
  })

  // A real JPEG (without GPS, so the GPS route counts it) with a unique marker in a comment just after its start,
  // then cut: the marker finds any copy on disk.
  const markedCut = (mark: string, keep: (length: number) => number) => {
    const photo = corpusFile(PHOTOS.noExif)
    const comment = Buffer.from(mark)
    const segment = Buffer.concat([Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]), comment])
    const whole = Buffer.concat([photo.subarray(0, 2), segment, photo.subarray(2)])
    return whole.subarray(0, keep(whole.length))
  }

  test('a damaged JPEG (cut anywhere, even just its end marker) is 422 rest_upload_unknown_error with the reason; nothing stored', async ({ uploadsDir }) => {
    const postId = posts.damaged
    const mark = marker('damaged')
    for (const [what, keep] of [
      ['cut at half', (n: number) => Math.floor(n / 2)],
      ['cut 1 KB before its end', (n: number) => n - 1024],
      ['without its end marker (FFD9)', (n: number) => n - 2],
    ] as const) {
      const response = await upload(anonymous, postId, markedCut(mark, keep), 'broken.jpg', { authorization: appPassword('author') })
      const error = await expectWordPressError(response, 422, 'rest_upload_unknown_error', { cors: false })
      // With libjpeg's words ("premature end of JPEG image") when libvips kept them: it has one error buffer for the
      // process, and the other worker's uploads run at the same time.
      expect(error.message, what).toMatch(/^This file is damaged or incomplete: it could not be read as an image( \(.+\))?\.$/)
      expectPrivateNoStore(response, what)
    }
    expect(await filesContaining(uploadsDir, mark), 'no file under originals/, public/ or incoming/').toEqual([])
    expect(await imagesLookedAt(postId), 'no attachment').toBe('0')
    // The same photo whole is accepted: the refusal is about the damage, not the photo.
    await uploadOrThrow(
      anonymous,
      postId,
      markedCut(mark, (n) => n),
      'whole.jpg',
      { authorization: appPassword('author') },
    )
    expect(await imagesLookedAt(postId)).toBe('1')
  })

  test('an empty body is refused with a 4xx and adds nothing', async () => {
    const postId = posts['invalid type']
    const response = await upload(anonymous, postId, Buffer.alloc(0), 'empty.jpg', { authorization: appPassword('author') })
    expect([400, 415], await response.text()).toContain(response.status())
    expect((await response.json()).data.status).toBe(response.status())
    expect(await imagesLookedAt(postId)).toBe('1')
  })

  test('a file name with path traversal is stored under a safe name inside the uploads folder', async ({ uploadsDir }) => {
    const postId = posts.traversal
    const names: [string, string][] = [
      ['../../evil.jpg', 'attachment; filename="../../evil.jpg"'],
      ['..\\..\\evil.jpg', 'attachment; filename="..\\..\\evil.jpg"'],
      ['/etc/evil.jpg', 'attachment; filename="/etc/evil.jpg"'],
      ['....//....//evil.jpg', 'attachment; filename="....//....//evil.jpg"'],
      ['encoded ../../evil.jpg', "attachment; filename*=UTF-8''..%2F..%2F..%2Fevil.jpg"],
    ]
    const uploadsRoot = path.resolve(uploadsDir)
    const stored: { what: string; mark: string; files: string[] }[] = []
    for (const [what, disposition] of names) {
      const mark = marker('traversal')
      const bytes = markedJpeg(mark)
      const attachment = await uploadOrThrow(anonymous, postId, bytes, 'x.jpg', { authorization: appPassword('author'), disposition })
      const relative = relativeUploadPath(attachment.url)
      expect(relative, what).toMatch(/^\d{4}\/\d{2}\/[A-Za-z0-9_-]+\.jpg$/)
      expect(attachment.title, `${what}: the title is no path`).not.toContain('/')
      const original = originalPath(uploadsDir, attachment.url)
      expect(original.startsWith(`${uploadsRoot}${path.sep}originals${path.sep}`), what).toBe(true)
      expect((await readFile(original)).equals(bytes), `${what}: the original is where the url says`).toBe(true)
      stored.push({ what, mark, files: [original, publicPath(uploadsDir, attachment.url)] })
    }
    // Each file is where its url says and nowhere else: not elsewhere in the uploads folder, not beside it, not
    // two levels up.
    const marks = stored.map((s) => s.mark)
    const scans = await Promise.all([
      filesContainingEach(uploadsRoot, marks),
      filesContainingEach(path.dirname(uploadsRoot), marks, 0),
      filesContainingEach(path.dirname(path.dirname(uploadsRoot)), marks, 0),
    ])
    for (const { what, mark, files } of stored) {
      const hits = scans.flatMap((scan) => scan.get(mark) ?? [])
      expect(hits, what).toContain(files[0])
      for (const hit of hits) expect(files, `${what}: a copy at ${hit}`).toContain(hit)
    }
    for (const outside of [
      path.resolve(uploadsRoot, '..', 'evil.jpg'),
      path.resolve(uploadsRoot, '..', '..', 'evil.jpg'),
      path.resolve(uploadsRoot, 'evil.jpg'),
      path.resolve(uploadsRoot, 'originals', 'evil.jpg'),
      path.resolve(uploadsRoot, 'public', 'evil.jpg'),
      '/etc/evil.jpg',
    ]) {
      expect(existsSync(outside), outside).toBe(false)
    }
  })

  test('a NUL byte in the file name or in ?title= never reaches the title, nor makes a 500', async () => {
    // The same request must not be stored on one database and fail on another (PostgreSQL text cannot hold NUL).
    const cases: [string, { disposition?: string; title?: string }][] = [
      ['a NUL byte in the file name', { disposition: "attachment; filename*=UTF-8''evil%00.php.jpg" }],
      ['a NUL byte in ?title=', { title: 'before\u0000after' }],
    ]
    for (const [what, options] of cases) {
      const response = await upload(anonymous, posts.traversal, corpusFile(PHOTOS.nikon), 'x.jpg', { authorization: appPassword('author'), ...options })
      const text = await response.text()
      expect.soft([201, 400], `${what}: ${text.slice(0, 200)}`).toContain(response.status())
      if (response.status() === 201) expect.soft(JSON.parse(text).title, what).not.toContain('\u0000')
      if (response.status() === 400) expect.soft(JSON.parse(text).code, what).toBe('rest_invalid_param')
    }
  })

  test('the upload answer: 201 with the attachment, its title from ?title= or else the file name', async () => {
    const postId = posts.draft
    const titled = await uploadOrThrow(anonymous, postId, corpusFile(PHOTOS.nikon), 'holiday.jpg', {
      authorization: appPassword('author'),
      title: 'On the pier',
    })
    expect(titled.title).toBe('On the pier')
    expect(titled.mimeType).toBe('image/jpeg')
    expect(titled.size).toBe(corpusFile(PHOTOS.nikon).length)
    const named = await uploadOrThrow(anonymous, postId, corpusFile(PHOTOS.nikon), 'harbour at dawn.jpg', { authorization: appPassword('author') })
    expect(named.title).toBe('harbour at dawn')
    expect(named.position).toBeGreaterThan(titled.position)
    const response = await upload(anonymous, postId, corpusFile(PHOTOS.nikon), 'x.jpg', { authorization: appPassword('author') })
    expect(response.status()).toBe(201)
    expectPrivateNoStore(response, 'a 201')
  })
})

test.describe('uploads: who may upload', () => {
  test('without credentials: 401 rest_forbidden; a wrong password: 401 rest_invalid_credentials; nothing stored', async ({ uploadsDir }) => {
    const mark = marker('anonymous')
    for (const [authorization, code] of [
      [undefined, 'rest_forbidden'],
      [basic(people.author.email, 'wrong-password'), 'rest_invalid_credentials'],
    ] as const) {
      const response = await upload(anonymous, posts.draft, markedJpeg(mark), 'x.jpg', { authorization })
      await expectWordPressError(response, 401, code, { cors: false })
      expectPrivateNoStore(response, code)
    }
    expect(await filesContaining(uploadsDir, mark)).toEqual([])
  })

  // upload_files, as WordPress's roles: authors and up. Contributors write posts but send no files, not even to
  // their own drafts; the code and message are WordPress's (which answers 400; Places a 403, as for every refusal).
  for (const who of ['contributor', 'subscriber'] as const) {
    test(`a ${who}: 403 rest_cannot_create (no upload_files), even to its own draft, by application password or session; nothing stored`, async ({
      uploadsDir,
    }) => {
      const mark = marker(who)
      const before = await imagesLookedAt(posts['contributor draft'], 'editor')
      for (const postId of [posts['contributor draft'], posts.draft]) {
        const byPassword = await upload(anonymous, postId, markedJpeg(mark), 'x.jpg', { authorization: appPassword(who) })
        const refusal = await expectWordPressError(byPassword, 403, 'rest_cannot_create', { cors: false })
        expect(refusal.message).toBe('Sorry, you are not allowed to upload media on this site.')
        const bySession = await upload(sessions[who]!, postId, markedJpeg(mark), 'x.jpg', { origin: baseURL })
        await expectWordPressError(bySession, 403, 'rest_cannot_create', { cors: false })
      }
      expect(await filesContaining(uploadsDir, mark), 'no file under originals/, public/ or incoming/').toEqual([])
      expect(await imagesLookedAt(posts['contributor draft'], 'editor'), 'no attachment was added').toBe(before)
    })
  }

  test("then edit_post decides, as for the GPS route: own posts yes, others' no; a missing post is 403, not 404", async () => {
    const image = corpusFile(PHOTOS.nikon)
    const cases: [string, Who, number | string, number, string?][] = [
      ['a contributor, its own draft', 'contributor', posts['contributor draft'], 403, 'rest_cannot_create'],
      ['a contributor, its own published post', 'contributor', posts['contributor published'], 403, 'rest_cannot_create'],
      ["a contributor, another's draft", 'contributor', posts.draft, 403, 'rest_cannot_create'],
      ["an author, another's draft", 'author', posts['contributor draft'], 403, 'rest_forbidden'],
      ['an author, its own draft', 'author', posts.draft, 201],
      ['an author, its own published post', 'author', posts.published, 201],
      ["an editor, another's published post", 'editor', posts.published, 201],
      ['an editor, a post that does not exist', 'editor', 2147483647, 403, 'rest_forbidden'],
      ['a subscriber, a post that does not exist', 'subscriber', 2147483647, 403, 'rest_cannot_create'],
    ]
    for (const [what, who, postId, status, code] of cases) {
      const response = await upload(anonymous, postId, image, 'x.jpg', { authorization: appPassword(who) })
      if (status === 201) expect(response.status(), `${what}: ${await response.text()}`).toBe(201)
      else expect((await expectWordPressError(response, status, code!, { cors: false })).code, what).toBe(code)
    }
  })

  test('?post must be a post id: 400 rest_invalid_param', async () => {
    for (const query of ['', 'abc', '-1', '1.5']) {
      const response = await upload(anonymous, query, corpusFile(PHOTOS.nikon), 'x.jpg', { authorization: appPassword('author') })
      await expectWordPressError(response, 400, 'rest_invalid_param', { cors: false })
    }
  })

  test("a session cookie uploads only from this site: no Origin or another site's is 401, this site's is 201", async ({ uploadsDir }) => {
    const session = sessions.author!
    const mark = marker('origin')
    for (const origin of [undefined, 'https://evil.example', 'null', `${baseURL}.evil.example`]) {
      const response = await upload(session, posts.draft, markedJpeg(mark), 'x.jpg', { origin })
      await expectWordPressError(response, 401, 'rest_forbidden', { cors: false })
    }
    expect(await filesContaining(uploadsDir, mark)).toEqual([])
    const response = await upload(session, posts.draft, markedJpeg(mark), 'x.jpg', { origin: baseURL })
    expect(response.status(), await response.text()).toBe(201)
  })
})

test.describe('uploaded images as visitors load them', () => {
  test('the public copy of a GPS photo has no GPS; the original on disk keeps it', async ({ uploadsDir }) => {
    const photo = truthOf(PHOTOS.iphone4)
    const attachment = await uploadOrThrow(anonymous, posts.published, corpusFile(photo.file), 'iphone.jpg', { authorization: appPassword('author') })
    expect(attachment.latitude).not.toBeNull()
    const response = await anonymous.get(attachment.url)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('image/jpeg')
    expect(response.headers()['x-content-type-options']).toBe('nosniff')
    expect(response.headers()['cache-control'], "a published post's image may be cached").toBe('public, no-cache')
    const served = await response.body()
    expect(readGps(served), 'the copy visitors load').toBeNull()
    const original = await readFile(originalPath(uploadsDir, attachment.url))
    const gps = readGps(original)
    expect(gps, 'the original').not.toBeNull()
    expect(Math.abs(gps!.latitude - photo.latitude!)).toBeLessThanOrEqual(1e-6)
    expect(Math.abs(gps!.longitude - photo.longitude!)).toBeLessThanOrEqual(1e-6)
    // The originals are never served: no path reaches them.
    const relative = relativeUploadPath(attachment.url)
    for (const guess of [
      `/uploads/originals/${relative}`,
      `/uploads/../originals/${relative}`,
      `/uploads/%2e%2e/originals/${relative}`,
      `/uploads/..%2Foriginals%2F${relative.replace(/\//g, '%2F')}`,
    ]) {
      const attempt = await anonymous.get(guess)
      if (attempt.status() === 200) expect(readGps(await attempt.body()), guess).toBeNull()
      else expect(attempt.status(), guess).toBe(404)
    }
  })

  test("a published post's image: any cache may keep it but must ask each time (304); once unpublished it is a 404 at once", async ({ databaseUrl }) => {
    const attachment = await uploadOrThrow(anonymous, posts['unpublished later'], corpusFile(PHOTOS.nikon), 'later.jpg', {
      authorization: appPassword('author'),
    })
    const first = await anonymous.get(attachment.url)
    expect(first.status()).toBe(200)
    // Next's image optimizer is off (next.config.mjs): it would keep a public copy for hours after the post is unpublished.
    const optimized = await anonymous.get(`/_next/image?url=${encodeURIComponent(new URL(attachment.url, 'http://site').pathname)}&w=640&q=75`)
    expect(optimized.status()).toBe(404)
    // no-cache, not max-age: a cache (a CDN, a proxy, the browser) asks again before each use, so it learns at once
    // that the post was unpublished.
    expect(first.headers()['cache-control']).toBe('public, no-cache')
    const etag = first.headers().etag!
    const lastModified = first.headers()['last-modified']!
    expect(etag).toMatch(/^"[^"]+"$/)
    expect(new Date(lastModified).getTime()).not.toBeNaN()

    for (const [what, headers] of [
      ['If-None-Match', { 'If-None-Match': etag }],
      ['If-None-Match among others, weakly', { 'If-None-Match': `"other", W/${etag}` }],
      ['If-Modified-Since', { 'If-Modified-Since': lastModified }],
    ] as const) {
      const again = await anonymous.get(attachment.url, { headers })
      expect(again.status(), what).toBe(304)
      expect(again.headers()['cache-control'], what).toBe('public, no-cache')
      expect(again.headers().etag, what).toBe(etag)
      expect((await again.body()).length, what).toBe(0)
    }
    expect(
      (await anonymous.get(attachment.url, { headers: { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified } })).status(),
      'If-None-Match decides',
    ).toBe(200)
    expect(
      (await anonymous.get(attachment.url, { headers: { 'If-Modified-Since': new Date(Date.parse(lastModified) - 60_000).toUTCString() } })).status(),
      'modified since',
    ).toBe(200)

    await execSql(databaseUrl, 'UPDATE posts SET status = ? WHERE id = ?', ['draft', posts['unpublished later']])
    // What a cache holding the image asks, and what a client without a copy asks: both are now told there is nothing.
    for (const headers of [{ 'If-None-Match': etag }, { 'If-Modified-Since': lastModified }, {}] as Record<string, string>[]) {
      const hidden = await anonymous.get(attachment.url, { headers })
      expect(hidden.status(), JSON.stringify(headers)).toBe(404)
      expect(hidden.headers()['cache-control'] ?? '', JSON.stringify(headers)).not.toMatch(/public/)
    }
    const author = await anonymous.get(attachment.url, { headers: { Authorization: appPassword('author') } })
    expect(author.status()).toBe(200)
    expect(author.headers()['cache-control']).toBe('private, no-store')
  })

  test('the images of a draft: 404 for anonymous visitors and for who may not edit it; 200, private, for its author and editors', async () => {
    const photo = corpusFile(PHOTOS.nikon)
    const attachment = await uploadOrThrow(anonymous, posts.draft, photo, 'draft.jpg', { authorization: appPassword('author') })

    const hidden = await anonymous.get(attachment.url)
    expect(hidden.status(), 'anonymous').toBe(404)
    expect(hidden.headers()['cache-control'] ?? '', "a 404 for a draft's image is not cached publicly").not.toMatch(/public/)
    const missing = await anonymous.get(attachment.url.replace(/\/([^/]+)$/, '/0000aaaa-no-such-file.jpg'))
    expect(missing.status()).toBe(404)
    expect(await hidden.text(), 'a hidden image answers as a missing one').toBe(await missing.text())
    expect((await sessions.subscriber!.get(attachment.url)).status(), 'a subscriber').toBe(404)

    for (const [who, response] of [
      ['the author, signed in', await sessions.author!.get(attachment.url)],
      ['the author, with an application password', await anonymous.get(attachment.url, { headers: { Authorization: appPassword('author') } })],
      ['an editor, signed in', await sessions.editor!.get(attachment.url)],
    ] as const) {
      expect(response.status(), who).toBe(200)
      expect(response.headers()['cache-control'], who).toMatch(/\bprivate\b/)
      expect(response.headers()['cache-control'], who).toMatch(/\bno-store\b/)
      const served = await response.body()
      expect(readGps(served), `${who}: the public copy, without GPS`).toBeNull()
      expect(served.length).toBeGreaterThan(0)
    }
  })

  test("sizes: a published post's are cached for good, without GPS; unpublished, only its editors get them, never cached", async ({ databaseUrl }) => {
    const attachment = await uploadOrThrow(anonymous, posts.sizes, corpusFile(PHOTOS.samsungNote), 'sizes.jpg', { authorization: appPassword('author') })
    const names = await renditionNames(databaseUrl, attachment.id)
    expect(names.length, 'a 920x570 photo: 160, 480, 800 and its own size, in JPEG and WebP').toBe(8)
    const urls = names.map((name) => new URL(`/uploads/renditions/${name}`, attachment.url).href)
    for (const url of urls) {
      const response = await anonymous.get(url)
      expect(response.status(), url).toBe(200)
      expect(response.headers()['cache-control'], url).toBe('public, max-age=31536000, s-maxage=1, immutable')
      expect(response.headers()['content-type'], url).toBe(url.endsWith('.webp') ? 'image/webp' : 'image/jpeg')
      expect(response.headers()['x-content-type-options']).toBe('nosniff')
      const body = await response.body()
      expect(readGps(body), `${url}: no GPS`).toBeNull()
    }
    expect(urls, 'its thumbnail is one of its sizes').toContain(attachment.thumbnailUrl)
    expect((await sharp(await (await anonymous.get(attachment.thumbnailUrl!)).body()).metadata()).width, 'the smallest JPEG').toBe(160)
    const unknown = await anonymous.get(urls[0]!.replace(/\/[0-9a-f]{32}\./, `/${'0'.repeat(32)}.`))
    expect(unknown.status(), 'a name no size has').toBe(404)
    for (const bad of ['/uploads/renditions/../2020/01/x.jpg', '/uploads/renditions/ABC.jpg', `/uploads/renditions/${names[0]}/x`]) {
      expect((await anonymous.get(bad)).status(), bad).toBe(404)
    }

    await execSql(databaseUrl, 'UPDATE posts SET status = ? WHERE id = ?', ['draft', posts.sizes])
    for (const url of urls) {
      const hidden = await anonymous.get(url)
      expect(hidden.status(), `${url}, anonymous`).toBe(404)
      expect(hidden.headers()['cache-control'] ?? '', url).not.toMatch(/public/)
      expect((await sessions.subscriber!.get(url)).status(), `${url}, a subscriber`).toBe(404)
      for (const [who, response] of [
        ['the author', await anonymous.get(url, { headers: { Authorization: appPassword('author') } })],
        ['an editor, signed in', await sessions.editor!.get(url)],
      ] as const) {
        expect(response.status(), who).toBe(200)
        expect(response.headers()['cache-control'], who).toBe('private, no-store')
      }
    }
  })

  test('an iPhone HEIC gets a thumbnail any browser shows: a JPEG, for its editors while the post is a draft', async () => {
    const attachment = await uploadOrThrow(anonymous, posts.heic, corpusFile(PHOTOS.heic487), 'iphone.heic', { authorization: appPassword('author') })
    expect(attachment.mimeType).toBe('image/heic')
    expect(attachment.thumbnailUrl).toMatch(/\/uploads\/renditions\/[0-9a-f]{32}\.jpg$/)
    const thumbnail = await anonymous.get(attachment.thumbnailUrl!, { headers: { Authorization: appPassword('author') } })
    expect(thumbnail.status()).toBe(200)
    expect(thumbnail.headers()['content-type']).toBe('image/jpeg')
    const { format, width } = await sharp(await thumbnail.body()).metadata()
    expect([format, width]).toEqual(['jpeg', 160])
    expect((await anonymous.get(attachment.thumbnailUrl!)).status(), 'not to anonymous visitors: the post is a draft').toBe(404)
  })
})
