import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import Database from 'better-sqlite3'
import ExifReader from 'exifreader'
import sharp from 'sharp'
import { places as placesIn, type Run } from '../support/cli'

// The sizes pages show (lib/media/renditions.ts), made at upload through the real store path (`places media import`,
// the same code as POST /media) and by `places media regenerate`, read back with sharp and ExifReader; then
// lib/media/pictures.ts against the same database.

const corpus = path.join('test', 'fixtures', 'exif')
const dir = mkdtempSync(path.join(tmpdir(), 'places-renditions-'))
after(() => rmSync(dir, { recursive: true, force: true }))
const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, 'r.db')}`, UPLOADS_DIR: path.join(dir, 'uploads'), SITE_URL: 'http://photos.test' }
const places = (...args: string[]) => placesIn(env, ...args)
const renditionFile = (name: string) => path.join(dir, 'uploads', 'renditions', name)

type Row = { attachmentId: number; title: string; format: string; width: number; height: number; fileName: string }
function renditions(): Row[] {
  const db = new Database(path.join(dir, 'r.db'), { readonly: true })
  const rows = db
    .prepare(
      `SELECT r.attachment_id AS attachmentId, a.title, r.format, r.width, r.height, r.file_name AS fileName
       FROM attachment_renditions r JOIN attachments a ON a.id = r.attachment_id ORDER BY r.attachment_id, r.format, r.width`,
    )
    .all() as Row[]
  db.close()
  return rows
}
const sizesOf = (title: string, format = 'jpeg') =>
  renditions()
    .filter((r) => r.title === title && r.format === format)
    .map((r) => `${r.width}x${r.height}`)

function ok(run: Run): string {
  assert.equal(run.status, 0, run.stderr)
  return run.stdout
}

let postId = ''
let draftId = ''
before(async () => {
  ok(await places('user', 'create', '--email', 'a@example.org', '--password', 'long enough', '--role', 'administrator'))
  const posts = path.join(dir, 'posts.geojson')
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
  ;[postId = '', draftId = ''] = ok(await places('import', posts))
    .trim()
    .split('\n')
  const photos = ['gox_gps.jpg', 'mei_Samsung GT-I9000 (Galaxy S).jpg', 'mei_Issue 263 dotnet.heic', 'mei_Issue 555 (1).tif'].map((f) => path.join(corpus, f))
  ok(await places('media', 'import', '--post', postId, ...photos))
  ok(await places('media', 'import', '--post', draftId, path.join(corpus, 'mei_Apple iPhone 4.jpg')))
})

describe('sizes made at upload', () => {
  test('thumbnail, small, medium and large by width, never enlarged, each in JPEG and WebP', () => {
    // 920x570: the large would enlarge it, so the image's own size is the last.
    assert.deepEqual(sizesOf('gox_gps'), ['160x99', '480x297', '800x496', '920x570'])
    assert.deepEqual(sizesOf('gox_gps', 'webp'), ['160x99', '480x297', '800x496', '920x570'])
    // A 16-bit greyscale TIFF of 1600x1300.
    assert.deepEqual(sizesOf('mei_Issue 555 (1)'), ['160x130', '480x390', '800x650', '1600x1300'])
  })

  test('turned upright by the EXIF orientation (6: a quarter turn), and HEIC decoded', () => {
    assert.deepEqual(sizesOf('mei_Samsung GT-I9000 (Galaxy S)'), ['160x213', '480x640'], 'stored 640x480 with orientation 6')
    // A portrait's sizes are as wide as a landscape's (a phone's 721 px finds the 800), the large no taller than 1,600.
    assert.deepEqual(sizesOf('mei_Issue 263 dotnet', 'webp'), ['160x213', '480x640', '800x1067', '1200x1600'], 'an iPhone HEIC of 3024x4032')
  })

  test('an image that cannot be decoded is refused: no row, no size, no file (test/media/media-import.test.ts has more)', async () => {
    const files = (tree: string) => readdirSync(path.join(dir, 'uploads', tree), { recursive: true }).sort()
    const before = { rows: renditions(), renditions: files('renditions'), originals: files('originals') }
    const broken = path.join(dir, 'broken.jpg')
    writeFileSync(broken, readFileSync(path.join(corpus, 'gox_gps.jpg')).subarray(0, 200))
    const refused = await places('media', 'import', '--post', postId, broken)
    assert.equal(refused.status, 1)
    assert.match(refused.stderr, /broken\.jpg: This file is damaged or incomplete/)
    assert.deepEqual({ rows: renditions(), renditions: files('renditions'), originals: files('originals') }, before)
  })

  test('every file is what its row says, without GPS or any EXIF, with the colour profile kept', async () => {
    const rows = renditions()
    assert.equal(rows.length, 5 * 8 - 4, 'five decodable images, eight files each; the Samsung photo is 480 wide: four')
    for (const row of rows) {
      assert.match(row.fileName, /^[0-9a-f]{32}\.(jpg|webp)$/)
      const bytes = readFileSync(renditionFile(row.fileName))
      const meta = await sharp(bytes).metadata()
      assert.equal(meta.format, row.format, row.fileName)
      assert.deepEqual([meta.width, meta.height], [row.width, row.height], row.fileName)
      assert.equal(meta.exif, undefined, `${row.title} ${row.format} ${row.width}: no EXIF`)
      assert.equal(meta.xmp, undefined)
      const tags = ExifReader.load(bytes, { expanded: true })
      assert.equal(tags.gps, undefined, `${row.title} ${row.format} ${row.width}: no GPS`)
    }
    const iphone4 = rows.find((r) => r.title === 'mei_Apple iPhone 4' && r.format === 'jpeg')!
    assert.ok((await sharp(renditionFile(iphone4.fileName)).metadata()).icc, "the original's ICC profile is kept")
    const heic = rows.find((r) => r.title === 'mei_Issue 263 dotnet' && r.format === 'webp')!
    assert.ok((await sharp(renditionFile(heic.fileName)).metadata()).icc, "the HEIC's profile (Display P3) is kept")
  })

  test('a failed import leaves no size behind (all or nothing, as the files it stored)', async () => {
    const before = readdirSync(path.join(dir, 'uploads', 'renditions')).sort()
    const notImage = path.join(dir, 'notes.jpg')
    writeFileSync(notImage, 'words, whatever the name says')
    assert.equal((await places('media', 'import', '--post', postId, path.join(corpus, 'exr_noexif.jpg'), notImage)).status, 1)
    assert.deepEqual(readdirSync(path.join(dir, 'uploads', 'renditions')).sort(), before)
  })
})

describe('places media regenerate', () => {
  test('makes the same files under the same names, restores lost ones, and says what it did', async () => {
    const before = renditions()
    const files = readdirSync(path.join(dir, 'uploads', 'renditions')).sort()
    const dataVersion = () => {
      const db = new Database(path.join(dir, 'r.db'), { readonly: true })
      try {
        return (db.prepare('SELECT data_version FROM site_state').get() as { data_version: number }).data_version
      } finally {
        db.close()
      }
    }
    const version = dataVersion()
    assert.deepEqual(JSON.parse(ok(await places('media', 'regenerate', '--json'))), { attachments: 5, regenerated: 5, undecodable: 0, missing: 0, timedOut: 0 })
    assert.deepEqual(renditions(), before, 'idempotent: the same rows')
    assert.equal(dataVersion(), version, 'nothing written: the public answers keep their cache')
    assert.deepEqual(readdirSync(path.join(dir, 'uploads', 'renditions')).sort(), files, 'and the same files')

    const lost = before.find((r) => r.title === 'gox_gps')!
    rmSync(renditionFile(lost.fileName))
    const db = new Database(path.join(dir, 'r.db'))
    db.prepare('DELETE FROM attachment_renditions WHERE attachment_id = ?').run(lost.attachmentId)
    db.close()
    const text = ok(await places('media', 'regenerate'))
    assert.match(text, /Regenerated the sizes of 5 of 5 attachments\./)
    assert.doesNotMatch(text, /could not be decoded/)
    assert.deepEqual(renditions(), before)
    assert.ok(readFileSync(renditionFile(lost.fileName)).length > 0)
  })

  test('a regenerate that fails part way leaves the sizes the rows still name', async () => {
    const sizes = renditions().filter((r) => r.title === 'mei_Samsung GT-I9000 (Galaxy S)')
    // One size cannot be put in place (a folder of its name: rename refuses, even to root); the other seven are
    // made again under the names already in use, and must stay.
    const [blocked, ...others] = sizes
    rmSync(renditionFile(blocked!.fileName))
    mkdirSync(path.join(renditionFile(blocked!.fileName), 'in-the-way'), { recursive: true })
    const run = await places('media', 'regenerate')
    assert.equal(run.status, 1, run.stdout)
    for (const size of others) assert.ok(readFileSync(renditionFile(size.fileName)).length > 0, `${size.format} ${size.width}: still there`)
    rmSync(renditionFile(blocked!.fileName), { recursive: true })
    assert.match(ok(await places('media', 'regenerate')), /Regenerated the sizes of 5 of 5 attachments\./)
    assert.ok(readFileSync(renditionFile(blocked!.fileName)).length > 0)
  })

  test('an attachment whose original is gone is left as it was', async () => {
    const before = renditions()
    const db = new Database(path.join(dir, 'r.db'), { readonly: true })
    const { filePath } = db.prepare(`SELECT file_path AS filePath FROM attachments WHERE title = 'gox_gps'`).get() as { filePath: string }
    db.close()
    rmSync(path.join(dir, 'uploads', 'originals', filePath))
    assert.equal((JSON.parse(ok(await places('media', 'regenerate', '--json'))) as { missing: number }).missing, 1)
    assert.deepEqual(renditions(), before)
  })
})

describe('lib/media/pictures.ts', () => {
  test("a published post's photos in order, its first as its picture; a draft's none", async () => {
    Object.assign(process.env, { DATABASE_URL: env.DATABASE_URL, UPLOADS_DIR: env.UPLOADS_DIR, SITE_URL: env.SITE_URL })
    const { firstPictures, postPictures } = await import('../../lib/media/pictures')
    const pictures = await postPictures(Number(postId))
    assert.deepEqual(
      pictures.map((p) => p.alt),
      ['gox_gps', 'mei_Samsung GT-I9000 (Galaxy S)', 'mei_Issue 263 dotnet', 'mei_Issue 555 (1)'],
      'in attachment order',
    )
    const [first] = pictures
    const jpeg = renditions().filter((r) => r.title === 'gox_gps' && r.format === 'jpeg')
    const url = (name: string) => `http://photos.test/uploads/renditions/${name}`
    assert.deepEqual(first, {
      caption: '',
      alt: 'gox_gps',
      width: 920,
      height: 570,
      src: url(jpeg[2]!.fileName),
      srcset: jpeg.map((r) => `${url(r.fileName)} ${r.width}w`).join(', '),
      webpSrcset: renditions()
        .filter((r) => r.title === 'gox_gps' && r.format === 'webp')
        .map((r) => `${url(r.fileName)} ${r.width}w`)
        .join(', '),
    })
    assert.equal(
      pictures[1]!.src,
      url(renditions().find((r) => r.title.startsWith('mei_Samsung') && r.width === 480)!.fileName),
      'medium: the largest up to 800',
    )
    const firsts = await firstPictures([Number(postId), Number(draftId), 999])
    assert.deepEqual([...firsts.keys()], [Number(postId)], 'the draft and a post that does not exist are absent')
    // The API's Picture: the page's, without the caption.
    const { caption: _, ...picture } = first
    assert.deepEqual(firsts.get(Number(postId)), picture)
    assert.deepEqual(await postPictures(Number(draftId)), [])
  })
})
