import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import Database from 'better-sqlite3'
import { readGps } from '../../lib/media/exif-gps'
import { places as placesIn } from '../support/cli'

// `places media import` stores images through the same code as uploads: originals kept whole, copies for
// visitors without location metadata, GPS read once, and all or nothing.

const corpus = path.join('test', 'fixtures', 'exif')
const photo = (name: string) => path.join(corpus, name)

async function setup(extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'places-media-'))
  const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, 'media.db')}`, UPLOADS_DIR: path.join(dir, 'uploads'), ...extraEnv }
  const places = (...args: string[]) => placesIn(env, ...args)
  const files = (tree: string): string[] => {
    const root = path.join(dir, 'uploads', tree)
    try {
      return readdirSync(root, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
        .sort()
    } catch {
      return []
    }
  }
  const rows = () => {
    const db = new Database(path.join(dir, 'media.db'), { readonly: true })
    const result = db
      .prepare(
        'SELECT id, post_id AS postId, position, title, file_path AS filePath, mime_type AS mimeType, size, latitude, longitude FROM attachments ORDER BY id',
      )
      .all() as {
      id: number
      position: number
      title: string
      filePath: string
      mimeType: string
      size: number
      latitude: number | null
      longitude: number | null
    }[]
    db.close()
    return result
  }
  assert.equal((await places('user', 'create', '--email', 'a@example.org', '--password', 'long enough', '--role', 'administrator')).status, 0)
  const post = file(dir, 'post.geojson', { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { title: 'Photos' } }] })
  const postId = (await places('import', post)).stdout.trim()
  return { dir, places, files, rows, postId }
}

function file(dir: string, name: string, content: unknown): string {
  const target = path.join(dir, name)
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content))
  return target
}

describe('places media import', () => {
  let site: Awaited<ReturnType<typeof setup>>
  before(async () => {
    site = await setup()
  })
  after(() => site && rmSync(site.dir, { recursive: true, force: true }))

  test('attaches in the order given, reads GPS once, keeps the original and strips the public copy', async () => {
    const run = await site.places(
      'media',
      'import',
      '--post',
      site.postId,
      photo('exr_noexif.jpg'),
      photo('gox_gps.jpg'),
      photo('mei_HTC Desire.webp'),
      photo('mei_Issue 263 dotnet.heic'),
    )
    assert.equal(run.status, 0, run.stderr)
    const ids = run.stdout.trim().split('\n').map(Number)
    const rows = site.rows()
    assert.deepEqual(
      rows.map((r) => r.id),
      ids,
    )
    assert.deepEqual(
      rows.map((r) => r.position),
      [0, 1, 2, 3],
    )
    assert.deepEqual(
      rows.map((r) => r.mimeType),
      ['image/jpeg', 'image/jpeg', 'image/webp', 'image/heic'],
    )
    assert.deepEqual(
      rows.map((r) => r.title),
      ['exr_noexif', 'gox_gps', 'mei_HTC Desire', 'mei_Issue 263 dotnet'],
    )
    assert.equal(rows[0]!.latitude, null)
    assert.ok(Math.abs(rows[1]!.latitude! - 26.5866666666667) < 1e-6 && Math.abs(rows[1]!.longitude! + 80.0536111111111) < 1e-6)
    assert.ok(Math.abs(rows[2]!.latitude! - 45.5006666666667) < 1e-6)
    assert.ok(Math.abs(rows[3]!.longitude! + 9.20774722222222) < 1e-6)
    for (const row of rows) {
      assert.match(row.filePath, /^\d{4}\/\d{2}\/[0-9a-f]{8}-[a-z0-9_-]+\.(jpg|webp|heic)$/)
      const original = readFileSync(path.join(site.dir, 'uploads', 'originals', row.filePath))
      const copy = readFileSync(path.join(site.dir, 'uploads', 'public', row.filePath))
      assert.equal(original.length, row.size)
      assert.deepEqual(readGps(original), row.latitude === null ? null : { latitude: row.latitude, longitude: row.longitude })
      assert.equal(readGps(copy), null, `${row.filePath}: the public copy has no GPS`)
      assert.ok(copy.length > 0)
    }
    assert.deepEqual(site.files('incoming'), [], 'nothing left half-way')
  })

  test('the database, the uploads folder and the originals (GPS included) are readable by their owner only', async () => {
    const mode = (file: string) => (statSync(file).mode & 0o777).toString(8)
    assert.equal(mode(path.join(site.dir, 'media.db')), '600')
    assert.equal(mode(path.join(site.dir, 'uploads')), '700')
    for (const original of site.files('originals')) assert.equal(mode(path.join(site.dir, 'uploads', 'originals', original)), '600', original)
    // A database's folder made by Places, as ./data/ is on a first start.
    const data = path.join(site.dir, 'new', 'data')
    const migrate = await placesIn({ ...process.env, DATABASE_URL: `file:${data}/places.db` }, 'migrate')
    assert.equal(migrate.status, 0, migrate.stderr)
    assert.deepEqual([mode(path.join(site.dir, 'new')), mode(data), mode(path.join(data, 'places.db'))], ['700', '700', '600'])
  })

  test('a file that is not an image, or is missing, attaches nothing and leaves no file', async () => {
    const before = { rows: site.rows(), originals: site.files('originals'), public: site.files('public') }
    const notImage = file(site.dir, 'notes.jpg', 'these are words, whatever the name says')
    const refused = await site.places('media', 'import', '--post', site.postId, photo('gox_gps.jpg'), notImage)
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /notes\.jpg: This file is not an image Places accepts/)
    assert.match(refused.stderr, /Nothing was attached/)
    const missing = await site.places('media', 'import', '--post', site.postId, path.join(site.dir, 'nope.jpg'))
    assert.match(missing.stderr, /nope\.jpg: no such file/)
    const noPost = await site.places('media', 'import', '--post', '999', photo('gox_gps.jpg'))
    assert.equal(noPost.status, 1)
    assert.match(noPost.stderr, /There is no post 999/)
    assert.equal((await site.places('media', 'import', '--post', site.postId)).status, 2, 'no files')
    assert.deepEqual({ rows: site.rows(), originals: site.files('originals'), public: site.files('public') }, before)
    assert.deepEqual(site.files('incoming'), [])
  })
})

describe('places media import: damaged images', () => {
  let site: Awaited<ReturnType<typeof setup>>
  before(async () => {
    site = await setup()
  })
  after(() => site && rmSync(site.dir, { recursive: true, force: true }))

  test('a JPEG or HEIC cut before its end is refused with the reason, and the whole import attaches nothing', async () => {
    const whole = readFileSync(photo('exr_noexif.jpg'))
    const before = { rows: site.rows(), originals: site.files('originals'), public: site.files('public'), renditions: site.files('renditions') }
    const heic = readFileSync(photo('epy_spring_1440x960.heic'))
    for (const [name, bytes, reason] of [
      ['broken.jpg', whole.subarray(0, Math.floor(whole.length / 2)), 'premature end of JPEG image'],
      ['no-end.jpg', whole.subarray(0, whole.length - 2), 'premature end of JPEG image'],
      // libheif decodes a cut HEIC without complaint (grey where data is missing): its container says it is cut.
      ['cut.heic', heic.subarray(0, heic.length - 1000), 'the file ends inside its “mdat” part'],
    ] as const) {
      const damaged = path.join(site.dir, name)
      writeFileSync(damaged, bytes)
      // A good photo first: all or nothing, so it goes too.
      const refused = await site.places('media', 'import', '--post', site.postId, photo('gox_gps.jpg'), damaged)
      assert.equal(refused.status, 1, name)
      assert.match(
        refused.stderr,
        new RegExp(
          `${name.replace('.', '\\.')}: This file is damaged or incomplete: it could not be read as an image \\(${reason}\\)\\. Nothing was attached\\.`,
        ),
      )
      assert.deepEqual(
        { rows: site.rows(), originals: site.files('originals'), public: site.files('public'), renditions: site.files('renditions') },
        before,
        `${name}: no row, no file`,
      )
      assert.deepEqual(site.files('incoming'), [])
    }
    assert.equal((await site.places('media', 'import', '--post', site.postId, photo('exr_noexif.jpg'))).status, 0, 'the same photo whole is accepted')
  })
})

describe('upload settings', () => {
  let kept: Awaited<ReturnType<typeof setup>>
  let small: Awaited<ReturnType<typeof setup>>
  before(async () => {
    ;[kept, small] = await Promise.all([setup({ KEEP_IMAGE_METADATA: 'true' }), setup({ UPLOAD_MAX_BYTES: '100000' })])
  })
  after(() => {
    for (const site of [kept, small]) if (site) rmSync(site.dir, { recursive: true, force: true })
  })

  test('KEEP_IMAGE_METADATA=true serves the original metadata', async () => {
    assert.equal((await kept.places('media', 'import', '--post', kept.postId, photo('gox_gps.jpg'))).status, 0)
    const [row] = kept.rows()
    assert.ok(readGps(readFileSync(path.join(kept.dir, 'uploads', 'public', row!.filePath))))
  })

  test('UPLOAD_MAX_BYTES refuses a larger file while reading it, leaving nothing', async () => {
    const run = await small.places('media', 'import', '--post', small.postId, photo('mei_Apple iPhone 4.jpg'))
    assert.equal(run.status, 1)
    assert.match(run.stderr, /larger than the upload limit/)
    assert.deepEqual(small.rows(), [])
    assert.deepEqual([...small.files('incoming'), ...small.files('originals'), ...small.files('public')], [])
  })
})
