import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import sharp from 'sharp'
import { readGps } from '../../lib/media/exif-gps'
import { places as placesIn, type Run } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { startServer, type RunningServer } from '../support/server'
import { queryRows } from '../support/sql'

// `places import-wxr` on the photos of a WordPress site as WordPress 6 leaves them (test/fixtures/wxr/media.xml):
// scaled and rotated copies beside the uploads they were made from, a featured image, captions and alt text, the
// geo_* meta as sites store it, and what Places leaves out; then a second run, and a run over a partly imported site.

const MEDIA = path.join('test', 'fixtures', 'wxr', 'media.xml')
const EXIF = path.join('test', 'fixtures', 'exif')
/** the photos' truth (test/fixtures/exif/README.md) */
const TOKYO_GPS = [26.5866667, -80.0536111]
const SIDE_GPS = [41.853, 12.4888333]

/**
 * wp-content/uploads as WordPress leaves it: the uploads with their GPS, and beside them the copies WordPress made
 * with GD, which keeps no EXIF (sharp writes none unless told). dome.jpg, the upload of dome-scaled.jpg, and gone.jpg
 * are missing.
 */
async function makeUploads(root: string): Promise<string> {
  const uploads = path.join(root, 'wp-content', 'uploads')
  const month = path.join(uploads, '2021', '07')
  mkdirSync(month, { recursive: true })
  const photo = (name: string) => path.join(EXIF, name)
  copyFileSync(photo('gox_gps.jpg'), path.join(month, 'tokyo.jpg'))
  await sharp(photo('gox_gps.jpg')).resize(320).jpeg().toFile(path.join(month, 'tokyo-scaled.jpg'))
  copyFileSync(photo('mei_Apple iPhone 4.jpg'), path.join(month, 'side.jpg'))
  await sharp(photo('mei_Apple iPhone 4.jpg')).rotate(90).resize(240).jpeg().toFile(path.join(month, 'side-rotated.jpg'))
  await sharp(photo('mei_Sony DSC-HX5V (2).jpg')).resize(320).jpeg().toFile(path.join(month, 'dome-scaled.jpg'))
  for (const name of ['lantern', 'early', 'gate', 'stray']) copyFileSync(photo('exr_noexif.jpg'), path.join(month, `${name}.jpg`))
  return uploads
}

type Site = { db: TestDatabase; env: NodeJS.ProcessEnv; places: (...args: string[]) => Promise<Run> }

async function newSite(kind: TestDatabase['kind'], dir: string, name: string): Promise<Site> {
  const db = await createTestDatabase(kind)
  const env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, name) }
  const places = (...args: string[]) => placesIn(env, ...args)
  assert.equal((await places('user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator')).status, 0)
  return { db, env, places }
}

type Row = Record<string, unknown>
const rows = (db: TestDatabase, sql: string) => queryRows<Row>(db.url, sql)

/** Every row of every table the import writes, in a stable order. */
async function everything(db: TestDatabase): Promise<Row[][]> {
  return Promise.all(
    [
      'SELECT * FROM posts ORDER BY id',
      'SELECT * FROM attachments ORDER BY id',
      'SELECT * FROM attachment_renditions ORDER BY id',
      'SELECT * FROM categories ORDER BY id',
      'SELECT * FROM post_categories ORDER BY post_id, category_id',
      'SELECT * FROM tags ORDER BY id',
      'SELECT * FROM post_tags ORDER BY post_id, tag_id',
      'SELECT * FROM comments ORDER BY id',
      'SELECT * FROM users ORDER BY id',
      'SELECT * FROM post_old_slugs ORDER BY post_id, slug',
    ].map((sql) => rows(db, sql)),
  )
}

/** What an import leaves of the file's content, without what differs between two sites (stored names, times of writing). */
async function content(db: TestDatabase): Promise<unknown> {
  return {
    posts: await rows(
      db,
      'SELECT id, type, status, title, slug, content, latitude, longitude, address, location_precision, source_guid FROM posts ORDER BY id',
    ),
    attachments: await rows(
      db,
      'SELECT id, post_id, position, title, caption, alt_text, mime_type, size, latitude, longitude, created_at, source_guid FROM attachments ORDER BY id',
    ),
    renditions: await rows(db, 'SELECT attachment_id, format, width, height FROM attachment_renditions ORDER BY attachment_id, format, width'),
    categories: await rows(db, 'SELECT c.slug, c.name, p.slug AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id ORDER BY c.slug'),
    links: await rows(db, 'SELECT pc.post_id, c.slug FROM post_categories pc JOIN categories c ON c.id = pc.category_id ORDER BY pc.post_id, c.slug'),
    tags: await rows(db, 'SELECT pt.post_id, t.slug, t.name FROM post_tags pt JOIN tags t ON t.id = pt.tag_id ORDER BY pt.post_id, t.slug'),
    comments: await rows(db, 'SELECT post_id, author_name, content, created_at FROM comments ORDER BY post_id, created_at, id'),
    users: await rows(db, 'SELECT email, name, role FROM users ORDER BY email'),
  }
}

for (const kind of databaseKinds) {
  describe(`places import-wxr of a site's photos on ${kind}`, () => {
    let dir: string
    let uploads: string
    let site: Site

    before(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'places-wxr-media-'))
      uploads = await makeUploads(dir)
      site = await newSite(kind, dir, 'stored')
      // Photos uploaded before the migration: attachment ids 1 to 3 are taken.
      const post = path.join(dir, 'before.geojson')
      writeFileSync(
        post,
        JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { id: 1, title: 'Before' } }] }),
      )
      assert.equal((await site.places('import', post)).status, 0)
      const plain = path.join(EXIF, 'exr_noexif.jpg')
      const media = await site.places('media', 'import', '--post', '1', plain, plain, plain)
      assert.equal(media.status, 0, media.stderr)
    })
    after(async () => {
      await site.db.drop()
      rmSync(dir, { recursive: true, force: true })
    })

    test('the copies WordPress made have no GPS; their uploads have', async () => {
      const month = path.join(uploads, '2021', '07')
      assert.equal(readGps(readFileSync(path.join(month, 'tokyo-scaled.jpg'))), null)
      assert.equal(readGps(readFileSync(path.join(month, 'side-rotated.jpg'))), null)
      assert.ok(readGps(readFileSync(path.join(month, 'tokyo.jpg'))))
      assert.equal((await sharp(path.join(month, 'tokyo-scaled.jpg')).metadata()).exif, undefined)
    })

    test('imports the uploads behind scaled and rotated copies, with their GPS, titles, captions, alt text and order', async () => {
      const map = path.join(dir, 'ids.json')
      const run = await site.places('import-wxr', MEDIA, '--uploads', uploads, '--map', map)
      assert.equal(run.status, 0, run.stderr)
      assert.match(run.stdout, /^Imported 5 posts, 2 categories, 1 tags, 2 comments and 6 attachments; 0 items were already imported\.$/m)
      assert.match(run.stdout, /^1 items got new ids, their WordPress ids being taken here: attachment 3 → 607\.$/m)
      assert.match(run.stdout, /^Left out, as Places does not keep them: 1 × revision, 1 × auto-draft, 1 × nav_menu_item\.$/m)
      const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning: '))
      assert.deepEqual(
        warnings.map((line) => line.replace(/ \(WordPress id (\d+), line \d+\)/, ' ($1)')),
        [
          'warning: attachment item "dome-scaled" (603): its file 2021/07/dome.jpg is missing; imported 2021/07/dome-scaled.jpg, the scaled or rotated copy WordPress made of it, instead (such a copy often has no GPS)',
          'warning: attachment item "gone" (605): its file 2021/07/gone.jpg is missing; not imported',
          'warning: attachment item "stray" (607): it is attached to no post, and Places keeps photos with their post; not imported',
        ],
      )

      const attachments = await rows(
        site.db,
        'SELECT id, post_id, position, title, caption, alt_text, size, latitude, longitude FROM attachments WHERE id > 3 ORDER BY post_id, position, created_at, id',
      )
      const summary = attachments.map((a) => [Number(a.id), Number(a.post_id), Number(a.position), a.title])
      assert.deepEqual(summary, [
        [601, 501, 0, '東京タワー'],
        // The featured image first, the others as WordPress lists them (by upload date): no menu_order was set.
        [604, 502, 0, 'lantern'],
        [602, 502, 1, 'side-rotated'],
        [603, 502, 1, 'dome-scaled'],
        [607, 502, 1, 'early'],
        // Uploaded to the Media Library and chosen as the featured image: it joins the post.
        [606, 503, 0, 'gate'],
      ])
      const byId = new Map(attachments.map((a) => [Number(a.id), a]))
      const tokyo = byId.get(601)!
      assert.deepEqual(
        [tokyo.latitude, tokyo.longitude].map((n) => Number(Number(n).toFixed(6))),
        TOKYO_GPS.map((n) => Number(n.toFixed(6))),
      )
      assert.equal(Number(tokyo.size), statSync(path.join(uploads, '2021', '07', 'tokyo.jpg')).size, 'the upload itself was stored, not the copy')
      assert.equal(tokyo.caption, 'Tōkyō at night — 東京タワー ☕')
      assert.equal(tokyo.alt_text, 'Tokyo Tower, lit red and white')
      const side = byId.get(602)!
      assert.deepEqual(
        [side.latitude, side.longitude].map((n) => Number(Number(n).toFixed(6))),
        SIDE_GPS.map((n) => Number(n.toFixed(6))),
      )
      assert.equal(side.alt_text, 'A narrow street')
      assert.deepEqual([byId.get(603)!.latitude, byId.get(603)!.longitude], [null, null], 'the scaled copy, whose upload is missing, has no GPS')

      const ids = JSON.parse(readFileSync(map, 'utf8')) as { posts: Record<string, number>; attachments: Record<string, number> }
      assert.deepEqual(ids, {
        posts: { 501: 501, 502: 502, 503: 503, 504: 504, 505: 505 },
        attachments: { 3: 607, 601: 601, 602: 602, 603: 603, 604: 604, 606: 606 },
      })
    })

    test('geo_* meta as sites store it: decimal commas, spaces, and geo_public "1", "0", "" and "true"', async () => {
      const posts = await rows(site.db, 'SELECT id, latitude, longitude, location_precision FROM posts WHERE id > 500 ORDER BY id')
      assert.deepEqual(
        posts.map((p) => [
          Number(p.id),
          p.latitude === null ? null : Number(p.latitude),
          p.longitude === null ? null : Number(p.longitude),
          p.location_precision,
        ]),
        [
          [501, null, null, 'exact'],
          [502, 35.6586, 139.7454, 'exact'],
          [503, 35.7148, 139.7967, 'hidden'],
          [504, 35.0116, 135.7681, 'hidden'],
          [505, -33.8568, 151.2153, 'exact'],
        ],
      )
      const categories = await rows(site.db, 'SELECT c.name, p.name AS parent FROM categories c LEFT JOIN categories p ON p.id = c.parent_id ORDER BY c.id')
      assert.deepEqual(
        categories.map((c) => [c.name, c.parent]),
        [
          ['日本 & Japan', null],
          ['東京', '日本 & Japan'],
        ],
        'a term listed twice is one category',
      )
    })

    test('a second run of the same file changes nothing', async () => {
      const before = await everything(site.db)
      const run = await site.places('import-wxr', MEDIA, '--uploads', uploads)
      assert.equal(run.status, 0, run.stderr)
      assert.match(run.stdout, /^Imported 0 posts, 0 categories and 0 attachments; 11 items were already imported\.$/m)
      assert.deepEqual(await everything(site.db), before)
    })

    describe('the GPS route afterwards', () => {
      let server: RunningServer
      before(async () => {
        server = await startServer({ DATABASE_URL: site.db.url, UPLOADS_DIR: site.env.UPLOADS_DIR! })
      })
      after(() => server.stop())

      test("a private post whose only photo WordPress scaled answers with the photo's GPS, under its WordPress id", async () => {
        const secret = (await site.places('app-password', 'create', '--user', 'admin@example.org', '--name', 'wxr')).stdout.trimEnd().split('\n').at(-1)!
        const authorization = `Basic ${Buffer.from(`admin@example.org:${secret}`).toString('base64')}`
        const response = await fetch(`${server.url}/places/v1/attachment-exif-gps/501`, { headers: { Authorization: authorization } })
        assert.equal(response.status, 200)
        const gps = (await response.json()) as { latitude: number; longitude: number; attachment_id: number; attachment_title: string }
        assert.deepEqual([gps.attachment_id, gps.attachment_title], [601, '東京タワー'])
        assert.deepEqual(
          [gps.latitude, gps.longitude].map((n) => Number(n.toFixed(6))),
          TOKYO_GPS.map((n) => Number(n.toFixed(6))),
        )
      })

      test("the post's page shows its photos in WordPress's order, with their alt text (else their title)", async () => {
        const feature = (await (await fetch(`${server.url}/places/v1/geojson/502`)).json()) as { properties: { url: string } }
        const html = await (await fetch(feature.properties.url)).text()
        const alts = [...html.matchAll(/<img [^>]*alt="([^"]*)"/g)].map((match) => match[1])
        assert.deepEqual(alts, ['lantern', 'A narrow street', 'dome-scaled', 'early'])
      })
    })

    test('a run over a partly imported site completes it: the site is then as one run would have made it', async () => {
      // An earlier export, without post 503 and the photos, imported without its uploads folder.
      const text = readFileSync(MEDIA, 'utf8')
      const items = text.split(/(?=\t<item>)/)
      const partial = items.filter((part) => !/<wp:post_id>(503|3|606)<\/wp:post_id>/.test(part)).join('')
      const partialFile = path.join(dir, 'partial.xml')
      writeFileSync(partialFile, partial.includes('</channel>') ? partial : `${partial}</channel>\n</rss>\n`)
      const [completed, whole] = await Promise.all([newSite(kind, dir, 'completed'), newSite(kind, dir, 'whole')])
      try {
        const first = await completed.places('import-wxr', partialFile)
        assert.equal(first.status, 0, first.stderr)
        assert.match(first.stdout, /^Imported 4 posts, 2 categories, 1 tags, 2 comments and 0 attachments/m)
        const second = await completed.places('import-wxr', MEDIA, '--uploads', uploads)
        assert.equal(second.status, 0, second.stderr)
        assert.match(second.stdout, /^Imported 1 posts, 0 categories and 6 attachments; 4 items were already imported\.$/m)
        assert.equal((await whole.places('import-wxr', MEDIA, '--uploads', uploads)).status, 0)
        assert.deepEqual(await content(completed.db), await content(whole.db))
      } finally {
        await Promise.all([completed.db.drop(), whole.db.drop()])
      }
    })
  })
}
