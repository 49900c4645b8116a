import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { readWxr, type WxrItem } from '../../lib/wxr/parse'
import { places as placesIn } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { queryRows } from '../support/sql'

// No lock-in: a site written out with `places export --format wxr` and read by `places import-wxr` into an empty
// Places is the same site: posts, places, privacy levels, categories, tags, comments and photos (docs/cli.md).

const SITE = path.join('test', 'fixtures', 'wxr', 'site.xml')
const UPLOADS = path.join('test', 'fixtures', 'wxr', 'uploads')

type Site = { db: TestDatabase; env: NodeJS.ProcessEnv; dir: string }
type Feature = { properties: { title: string; date: string; location_precision?: string } }

for (const kind of databaseKinds) {
  describe(`a WordPress export of a Places site, imported into another, on ${kind}`, () => {
    const sites: Site[] = []
    const places = async (site: Site, ...args: string[]) => {
      const run = await placesIn(site.env, ...args)
      assert.equal(run.status, 0, `places ${args.join(' ')}: ${run.stderr}`)
      return run.stdout
    }
    const newSite = async (): Promise<Site> => {
      const db = await createTestDatabase(kind)
      const dir = mkdtempSync(path.join(tmpdir(), 'places-wxr-trip-'))
      const site = { db, dir, env: { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') } }
      sites.push(site)
      return site
    }
    let source: Site
    let copy: Site
    let wxr: string

    before(async () => {
      source = await newSite()
      await places(source, 'user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator')
      await places(source, 'import-wxr', SITE, '--uploads', UPLOADS)
      // Every level, a trashed post, a tag and a title and content with what XML and CDATA must carry.
      const more = path.join(source.dir, 'more.geojson')
      const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] })
      const feature = (title: string, geometry: unknown, properties: Record<string, unknown> = {}) => ({
        type: 'Feature',
        geometry,
        properties: { title, categories: ['Asia > Japan'], ...properties },
      })
      writeFileSync(
        more,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            feature('Approximate', point(139.7, 35.68), { location_precision: 'approximate', tags: ['Night'] }),
            feature('City', point(135.5, 34.69), { location_precision: 'city', address: 'Osaka' }),
            feature('Hidden', point(135.77, 35.01), { geo_public: false, address: 'Kyoto' }),
            feature('Near home', point(-0.1276, 51.5072), { tags: ['Night', 'Rain'] }),
            feature('Fish & chips <3 ]]> end', point(-0.12, 51.5), {
              content: '<p>A <a href="/post/city">link</a> &amp; <em>more</em> ]]&gt; and ]]> too</p>\n<ul><li>one</li><li>two</li></ul>',
              excerpt: 'Short & sweet <b>',
              status: 'draft',
            }),
          ],
        }),
      )
      await places(source, 'import', more)
      await places(source, 'zone', 'add', '--lat', '51.5072', '--lng=-0.1276', '--radius', '500', '--level', 'city', '--name', 'Home')
      const [trashed] = await queryRows<{ id: number }>(source.db.url, "SELECT id FROM posts WHERE title = 'City'")
      await places(source, 'post', 'delete', String(trashed!.id))

      wxr = path.join(source.dir, 'site.xml')
      writeFileSync(wxr, await places(source, 'export', '--format', 'wxr'))
      copy = await newSite()
      await places(copy, 'user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator')
      await places(copy, 'import-wxr', wxr, '--uploads', path.join(source.dir, 'uploads', 'originals'))
    })
    after(async () => {
      for (const site of sites) {
        await site.db.drop()
        rmSync(site.dir, { recursive: true, force: true })
      }
    })

    test('the file is well-formed WXR 1.2, with the Geodata meta WordPress plugins read', async () => {
      assert.match(readFileSync(wxr, 'utf8'), /<wp:wxr_version>1\.2<\/wp:wxr_version>/)
      const items: WxrItem[] = []
      for await (const record of readWxr(wxr)) if (record.kind === 'item') items.push(record)
      const approximate = items.find((item) => item.title === 'Approximate')!
      assert.deepEqual(
        ['geo_latitude', 'geo_longitude', 'geo_public', 'geo_precision'].map((key) => approximate.meta.get(key)),
        ['35.68', '139.7', '1', 'approximate'],
      )
      assert.equal(items.find((item) => item.title === 'Hidden')!.meta.get('geo_public'), '0')
      assert.ok(
        items.some((item) => item.postType === 'attachment' && item.meta.get('_wp_attached_file')),
        'photos are attachments, with their files',
      )
      assert.ok(
        items.some((item) => item.title === 'Fish & chips <3 ]]> end'),
        'a title with ]]> survives CDATA',
      )
    })

    test('the whole site or nothing: --post-type and --all-statuses are refused with wxr, as an unknown format is', async () => {
      for (const [args, message] of [
        [['--format', 'wxr', '--post-type', 'post'], /--format wxr writes the whole site, every type and status: --post-type and --all-statuses do not apply/],
        [['--format', 'wxr', '--all-statuses'], /--post-type and --all-statuses do not apply/],
        [['--format', 'xml'], /--format must be one of geojson, kml, gpx, csv, wxr/],
      ] as const) {
        const run = await placesIn(source.env, 'export', ...args)
        assert.equal(run.status, 2, args.join(' '))
        assert.match(run.stderr, message)
        assert.equal(run.stdout, '', 'nothing written')
      }
    })

    test('the copy has the same posts, places, levels, categories, tags and authors', async () => {
      // A photo is stored anew under a name of its own: the content shows it at its new address.
      const files = `SELECT file_path AS path FROM attachments ORDER BY post_id, position, id`
      const [before, after] = await Promise.all([queryRows<{ path: string }>(source.db.url, files), queryRows<{ path: string }>(copy.db.url, files)])
      assert.equal(after.length, before.length)
      let sourceJson = await places(source, 'export', '--all-statuses')
      before.forEach(({ path: file }, i) => {
        assert.equal(after[i]!.path.replace(/^\d{4}\/\d{2}\/[0-9a-f]{8}-/, ''), file.replace(/^\d{4}\/\d{2}\/[0-9a-f]{8}-/, ''), 'the same name')
        sourceJson = sourceJson.replaceAll(`/uploads/${file}`, `/uploads/${after[i]!.path}`)
      })
      // WXR's dates are to the second, as WordPress keeps them.
      const toSeconds = (json: string) =>
        (JSON.parse(json) as { features: Feature[] }).features.map((f) => ({
          ...f,
          properties: { ...f.properties, date: f.properties.date.replace(/\.\d{3}Z$/, '.000Z') },
        }))
      const sourcePosts = toSeconds(sourceJson)
      const copyPosts = toSeconds(await places(copy, 'export', '--all-statuses'))
      assert.ok(sourcePosts.length >= 15, `${sourcePosts.length} posts`)
      assert.deepEqual(copyPosts, sourcePosts)
      const level = (title: string) => copyPosts.find((f) => f.properties.title === title)?.properties.location_precision
      assert.equal(level('Hidden'), 'hidden')
      assert.equal(level('Near home'), 'city', 'the zone the source had makes the level, as it did there')
    })

    test('the copy has the same trash, comments and photos', async () => {
      const trash = 'SELECT id, status, status_before_trash AS before FROM posts WHERE status = ? ORDER BY id'
      assert.deepEqual(await queryRows(copy.db.url, trash, ['trash']), await queryRows(source.db.url, trash, ['trash']))
      const comments = `SELECT c.post_id AS post, c.author_name AS author, c.author_url AS url, c.content, c.created_at AS date,
        p.content AS answers FROM comments c LEFT JOIN comments p ON p.id = c.parent_id ORDER BY c.post_id, c.created_at, c.id`
      const sourceComments = await queryRows(source.db.url, comments)
      assert.ok(
        sourceComments.some((c) => (c as { answers: string | null }).answers !== null),
        'replies too',
      )
      assert.deepEqual(await queryRows(copy.db.url, comments), sourceComments)
      const photos = `SELECT post_id AS post, position, title, caption, alt_text AS alt, mime_type AS type, size, latitude, longitude
        FROM attachments ORDER BY post_id, position, id`
      const sourcePhotos = await queryRows(source.db.url, photos)
      assert.ok(sourcePhotos.length >= 3, `${sourcePhotos.length} photos`)
      assert.deepEqual(await queryRows(copy.db.url, photos), sourcePhotos)
    })
  })
}
