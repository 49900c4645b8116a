import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import Database from 'better-sqlite3'
import ExifReader from 'exifreader'
import { runPlaces } from '../support/cli'
import { createTestDatabase, type TestDatabase } from '../support/databases'
import { startS3, type TestS3 } from '../support/s3'
import { startServer, type RunningServer } from '../support/server'

// Photos in object storage (MEDIA_STORAGE=s3): two servers over one database, each with a local folder of its own,
// as two machines are, and a bucket on an S3-compatible server. A photo uploaded through one is served by the other,
// deleted through the command line it is gone from both; the bucket holds the original with its GPS, the public
// copy without, and the sizes, under S3_PREFIX; the local folders hold nothing once an upload is done.

const PHOTO = path.join('test', 'fixtures', 'exif', 'gox_gps.jpg')
const PREFIX = 'site-a/'

describe('photos in an S3 bucket', () => {
  let db: TestDatabase
  let s3: TestS3
  let a: RunningServer
  let b: RunningServer
  let dir: string
  let env: NodeJS.ProcessEnv
  let authorization: string
  let published: string
  let draft: string
  const places = (...args: string[]) => runPlaces(env, ...args)
  const scratch = (name: string) => path.join(dir, name)

  before(async () => {
    db = await createTestDatabase('sqlite')
    s3 = await startS3()
    dir = mkdtempSync(path.join(tmpdir(), 'places-s3-test-'))
    const storage = { ...s3.env, S3_PREFIX: PREFIX.slice(0, -1) }
    env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: scratch('cli'), ...storage }
    await places('user', 'create', '--email', 'editor@example.org', '--password', 'long enough password', '--role', 'editor')
    const secret = (await places('app-password', 'create', '--user', 'editor@example.org')).split('\n').at(-1)!
    authorization = `Basic ${Buffer.from(`editor@example.org:${secret}`).toString('base64')}`
    const posts = scratch('posts.geojson')
    writeFileSync(
      posts,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: null, properties: { title: 'Published' } },
          { type: 'Feature', geometry: null, properties: { title: 'Draft', status: 'draft' } },
        ],
      }),
    )
    ;[published = '', draft = ''] = (await places('import', posts, '--author', 'editor@example.org')).split('\n')
    ;[a, b] = await Promise.all([
      startServer({ DATABASE_URL: db.url, UPLOADS_DIR: scratch('a'), ...storage }),
      startServer({ DATABASE_URL: db.url, UPLOADS_DIR: scratch('b'), ...storage }),
    ])
  })

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await s3?.stop()
    await db?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const upload = async (server: RunningServer, postId: string, body: Uint8Array<ArrayBuffer>, filename = 'photo.jpg') =>
    fetch(`${server.url}/places/v1/media?post=${postId}`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'image/jpeg', 'Content-Disposition': `attachment; filename="${filename}"` },
      body,
    })
  /** A status, the body read: a body left unread keeps its connection busy, and the server's stop waits for it. */
  const statusOf = async (response: Promise<Response>) => {
    const answer = await response
    await answer.arrayBuffer()
    return answer.status
  }
  type Attachment = { id: number; url: string; thumbnailUrl: string }
  /** The same path on another server. */
  const on = (server: RunningServer, url: string) => `${server.url}${new URL(url).pathname}`
  const stored = (url: string) => decodeURIComponent(new URL(url).pathname.slice('/uploads/'.length))

  test('an upload through one server is in the bucket, whole, and served by the other', async () => {
    const response = await upload(a, published, readFileSync(PHOTO))
    assert.equal(response.status, 201, await response.clone().text())
    const photo = (await response.json()) as Attachment
    const key = stored(photo.url)

    const keys = await s3.keys()
    assert.deepEqual(
      keys.filter((k) => !k.startsWith(`${PREFIX}renditions/`)),
      [`${PREFIX}originals/${key}`, `${PREFIX}public/${key}`],
    )
    assert.equal(keys.filter((k) => k.startsWith(`${PREFIX}renditions/`)).length, 8, 'four sizes, JPEG and WebP')
    assert.ok(keys.includes(`${PREFIX}${stored(photo.thumbnailUrl)}`))
    assert.deepEqual(await s3.read(`${PREFIX}originals/${key}`), readFileSync(PHOTO), 'the original as uploaded')
    assert.ok(ExifReader.load(await s3.read(`${PREFIX}originals/${key}`), { expanded: true }).gps?.Latitude, 'with its GPS')

    const served = await fetch(on(b, photo.url))
    assert.equal(served.status, 200)
    const bytes = Buffer.from(await served.arrayBuffer())
    assert.deepEqual(bytes, await s3.read(`${PREFIX}public/${key}`))
    assert.equal(ExifReader.load(bytes, { expanded: true }).gps, undefined, 'the public copy has no location')
    assert.equal(served.headers.get('content-type'), 'image/jpeg')
    assert.equal(served.headers.get('cache-control'), 'public, no-cache')

    const thumbnail = await fetch(on(b, photo.thumbnailUrl))
    assert.equal(thumbnail.status, 200)
    assert.deepEqual(Buffer.from(await thumbnail.arrayBuffer()), await s3.read(`${PREFIX}${stored(photo.thumbnailUrl)}`))
    assert.match(thumbnail.headers.get('cache-control') ?? '', /immutable/)
    const again = await fetch(on(a, photo.thumbnailUrl), { headers: { 'If-None-Match': thumbnail.headers.get('etag')! } })
    assert.equal(again.status, 304, 'the ETag is the same on both servers')

    // HEAD answers the headers without fetching the object: more HEADs than the SDK's 50 connections hold none of them.
    for (let i = 0; i < 60; i++) {
      const head = await fetch(on(a, photo.url), { method: 'HEAD' })
      assert.equal(head.status, 200)
      assert.equal(head.headers.get('content-type'), 'image/jpeg')
    }
    assert.equal(await statusOf(fetch(on(a, photo.url))), 200)

    // Nothing stays on either machine: scratch is emptied, and no file is kept beside the bucket.
    for (const local of [scratch('a'), scratch('b')]) {
      const left = existsSync(local) ? readdirSync(local, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()) : []
      assert.deepEqual(left, [], `${local} holds no file`)
    }
  })

  test("a draft's photo is served only to who may edit it, from either server", async () => {
    const response = await upload(b, draft, readFileSync(PHOTO), 'draft.jpg')
    assert.equal(response.status, 201)
    const photo = (await response.json()) as Attachment
    for (const server of [a, b]) {
      assert.equal(await statusOf(fetch(on(server, photo.url))), 404)
      assert.equal(await statusOf(fetch(on(server, photo.thumbnailUrl))), 404)
      const asEditor = await fetch(on(server, photo.url), { headers: { Authorization: authorization } })
      assert.equal(asEditor.status, 200)
      assert.equal(asEditor.headers.get('cache-control'), 'private, no-store')
      await asEditor.arrayBuffer()
    }
  })

  test('a refused upload leaves nothing in the bucket', async () => {
    const before = await s3.keys()
    assert.equal(await statusOf(upload(a, published, Buffer.from('not a picture at all'), 'notes.jpg')), 415)
    const cutOff = readFileSync(PHOTO).subarray(0, 20_000)
    assert.equal(await statusOf(upload(a, published, cutOff, 'cut.jpg')), 422)
    assert.deepEqual(await s3.keys(), before)
  })

  test('places media regenerate reads the originals from the bucket and makes the same sizes', async () => {
    const before = await s3.keys()
    const output = await runPlaces({ ...env, UPLOADS_DIR: scratch('regenerate') }, 'media', 'regenerate')
    assert.match(output, /^Regenerated the sizes of 2 of 2 attachments\.$/m)
    assert.deepEqual(await s3.keys(), before)
  })

  test('a post deleted for good through the command line takes its files out of the bucket', async () => {
    const keysBefore = await s3.keys()
    const output = await runPlaces({ ...env, UPLOADS_DIR: scratch('delete') }, 'post', 'delete', published, '--force')
    assert.equal(output, `Deleted post ${published} and its 1 photo.`)
    const left = await s3.keys()
    assert.equal(keysBefore.length - left.length, 10, 'the original, the public copy and eight sizes')
    // What is left is the draft's photo alone.
    assert.equal(left.filter((k) => k.startsWith(`${PREFIX}originals/`)).length, 1)
  })

  test('/healthz says when the bucket does not answer', async () => {
    const health = async () => {
      const response = await fetch(`${b.url}/healthz`)
      return { status: response.status, body: (await response.json()) as { status: string; media: unknown; build: unknown } }
    }
    const up = await health()
    assert.equal(up.status, 200)
    assert.deepEqual(up.body.media, { storage: 's3', ok: true })
    // Both servers recorded the one build they run, a row each, when they started (lib/builds.ts).
    const buildId = readFileSync(path.join('.next', 'BUILD_ID'), 'utf8').trim()
    assert.deepEqual(up.body.build, { id: buildId, newest: true })
    const sqlite = new Database(db.url.slice('file:'.length), { readonly: true })
    assert.deepEqual(sqlite.prepare('SELECT build_id AS buildId FROM server_builds').all(), [{ buildId }, { buildId }])
    sqlite.close()
    await s3.stop()
    const down = await health()
    assert.equal(down.status, 503)
    assert.equal(down.body.status, 'unavailable')
    assert.deepEqual(down.body.media, { storage: 's3', ok: false })
  })

  test('MEDIA_STORAGE=s3 without a bucket is refused, with the reason', () => {
    const { S3_BUCKET: _bucket, ...withoutBucket } = env
    const run = spawnSync(process.execPath, ['bin/places.mjs', 'site', 'get'], { env: withoutBucket, encoding: 'utf8' })
    assert.notEqual(run.status, 0)
    assert.match(run.stderr, /S3_BUCKET/)
  })
})

describe('places media move-storage', () => {
  let db: TestDatabase
  let s3: TestS3
  let dir: string
  let env: NodeJS.ProcessEnv
  const places = (...args: string[]) => runPlaces(env, ...args)
  // The bucket's server runs in this process: a command that talks to it must leave the event loop free.
  const move = async (to: string, ...args: string[]) =>
    JSON.parse(await runPlaces(env, 'media', 'move-storage', '--to', to, '--json', ...args)) as Record<string, number>
  const localFiles = (root: string) =>
    readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort()

  before(async () => {
    db = await createTestDatabase('sqlite')
    s3 = await startS3()
    dir = mkdtempSync(path.join(tmpdir(), 'places-move-test-'))
    // A site on disk, with the bucket's settings beside: MEDIA_STORAGE stays disk until the files are across.
    const { MEDIA_STORAGE: _disk, ...bucket } = s3.env
    env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'disk'), ...bucket, S3_PREFIX: 'site-b' }
    const posts = path.join(dir, 'posts.geojson')
    writeFileSync(posts, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { title: 'Moved' } }] }))
    await places('user', 'create', '--email', 'admin@example.org', '--password', 'long enough password', '--role', 'administrator')
    await places('media', 'import', '--post', await places('import', posts), PHOTO)
  })

  after(async () => {
    await s3?.stop()
    await db?.drop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('copies every file into the bucket, resumes, verifies, and back to disk', async () => {
    const disk = path.join(dir, 'disk')
    const onDisk = localFiles(disk).filter((file) => !file.startsWith('incoming'))
    assert.equal(onDisk.length, 10, 'the original, the public copy and eight sizes')

    assert.deepEqual(await move('s3'), { files: 10, copied: 10, present: 0, missing: 0, mismatched: 0 })
    assert.deepEqual(await s3.keys(), onDisk.map((file) => `site-b/${file.split(path.sep).join('/')}`).sort())
    for (const file of onDisk) assert.deepEqual(await s3.read(`site-b/${file.split(path.sep).join('/')}`), readFileSync(path.join(disk, file)))

    // A second run finds everything there; --verify reads both ends and finds a file changed since, of the same size.
    assert.deepEqual(await move('s3'), { files: 10, copied: 0, present: 10, missing: 0, mismatched: 0 })
    const changed = path.join(
      disk,
      onDisk.find((file) => file.startsWith('renditions'))!,
    )
    const bytes = readFileSync(changed)
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 3) ^ 0xff, bytes.length - 3)
    writeFileSync(changed, bytes)
    assert.deepEqual(await move('s3', '--verify'), { files: 10, copied: 1, present: 9, missing: 0, mismatched: 1 })
    assert.deepEqual(await s3.read(`site-b/${path.relative(disk, changed).split(path.sep).join('/')}`), bytes)

    // Switched: the command line reads the originals from the bucket alone, with an empty local folder.
    const switched = { ...env, MEDIA_STORAGE: 's3', UPLOADS_DIR: path.join(dir, 'empty') }
    assert.match(await runPlaces(switched, 'media', 'regenerate'), /^Regenerated the sizes of 1 of 1 attachments\.$/m)

    // And back to disk, into a new folder: the bucket's files (the changed size made anew by regenerate).
    const back = { ...env, UPLOADS_DIR: path.join(dir, 'back') }
    assert.deepEqual(JSON.parse(await runPlaces(back, 'media', 'move-storage', '--to', 'disk', '--json')), {
      files: 10,
      copied: 10,
      present: 0,
      missing: 0,
      mismatched: 0,
    })
    for (const file of onDisk) assert.deepEqual(readFileSync(path.join(dir, 'back', file)), await s3.read(`site-b/${file.split(path.sep).join('/')}`), file)
    assert.notDeepEqual(readFileSync(path.join(dir, 'back', path.relative(disk, changed))), bytes)
    assert.match(await runPlaces(back, 'media', 'move-storage', '--to', 'disk'), /^Copied 0 of 10 files to .*back.*; 10 were there already\.$/m)
  })

  test('--to is s3 or disk', () => {
    const run = spawnSync(process.execPath, ['bin/places.mjs', 'media', 'move-storage', '--to', 'nfs'], { env, encoding: 'utf8' })
    assert.equal(run.status, 2)
    assert.match(run.stderr, /--to must be s3 or disk/)
  })
})
