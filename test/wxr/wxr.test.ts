import assert from 'node:assert/strict'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { readGps } from '../../lib/media/exif-gps'
import { places as placesIn } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { queryRows, refusingPosts } from '../support/sql'
import { startServer, type RunningServer } from '../support/server'

// `places import-wxr` on a hand-written WordPress export (test/fixtures/wxr/site.xml, written from WordPress's
// wp-admin/includes/export.php), then what the public routes serve from it.

const SITE = path.join('test', 'fixtures', 'wxr', 'site.xml')
const UPLOADS = path.join('test', 'fixtures', 'wxr', 'uploads')

type Exported = { geometry: { coordinates: [number, number] } | null; properties: Record<string, unknown> & { id: number; title: string } }

for (const kind of databaseKinds) {
  describe(`places import-wxr on ${kind}`, () => {
    let db: TestDatabase
    let dir: string
    let env: NodeJS.ProcessEnv
    const places = (...args: string[]) => placesIn(env, ...args)
    const exported = async (): Promise<Exported[]> => (JSON.parse((await places('export', '--all-statuses')).stdout) as { features: Exported[] }).features
    const byTitle = async (title: string) => (await exported()).filter((f) => f.properties.title === title)

    before(async () => {
      db = await createTestDatabase(kind)
      dir = mkdtempSync(path.join(tmpdir(), 'places-wxr-'))
      env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') }
      assert.equal((await places('user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator')).status, 0)
      // Post 2 exists already: the export's page 2 must get another id.
      const existing = path.join(dir, 'existing.geojson')
      writeFileSync(
        existing,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: null, properties: { id: 2, title: 'Already here', categories: ['Europe'] } }],
        }),
      )
      assert.equal((await places('import', existing)).status, 0)
      // Set before the import: the export's language must not replace it.
      assert.equal((await places('site', 'set', '--language', 'pt-PT')).status, 0)
    })
    after(async () => {
      await db.drop()
      rmSync(dir, { recursive: true, force: true })
    })

    test('imports authors, categories, posts of every type and status, geodata and attachments', async () => {
      const map = path.join(dir, 'ids.json')
      const run = await places('import-wxr', SITE, '--uploads', UPLOADS, '--map', map)
      assert.equal(run.status, 0, run.stderr)
      assert.match(run.stdout, /Imported 12 posts, 3 categories, 2 tags, 3 comments and 4 attachments; 0 items were already imported\./)
      assert.match(run.stdout, /^Left out, as Places does not keep them: .*1 × post_format/m)
      for (const kind of ['1 × unapproved comment', '1 × spam comment', '1 × pingback']) assert.match(run.stdout, new RegExp(`^Left out, .*${kind}`, 'm'))
      assert.doesNotMatch(run.stdout, /\d × comment\b/, 'approved comments are not left out')
      assert.doesNotMatch(run.stdout, /post_tag/)
      assert.match(run.stderr, /item "Colosseum" \(WordPress id 105, line \d+\): tag "a, b" must not contain commas or NUL characters; left out/)
      assert.match(run.stdout, /^1 items got new ids, their WordPress ids being taken here: post 2 → 112\.$/m)
      // The export's channel names the site where this one had no settings of its own.
      assert.match(run.stdout, /^Set from the export, as they had never been set here: the site's title, tagline \(places site get\)\.$/m)
      assert.deepEqual(JSON.parse((await places('site', 'get', '--json')).stdout), {
        title: 'Travels',
        tagline: 'Places we went',
        language: 'pt-PT',
        timezone: 'UTC',
      })
      assert.match(run.stdout, /New users, who cannot sign in until a password is set \(places user set-password\): ana@travels\.example, ben@travels\.example/)
      assert.match(run.stderr, /item "Broken coordinates" \(WordPress id 104, line \d+\): geo_latitude "north-ish" .* imported without a location/)
      assert.match(run.stderr, /attachment item "Lost photo" \(WordPress id 204, line \d+\): its file 2020\/05\/lost\.jpg is missing; not imported/)
      assert.match(
        run.stderr,
        /attachment item "Cut short" \(WordPress id 205, line \d+\): its image does not decode \(.+\); imported with its file and GPS, without sizes/,
      )

      const posts = await exported()
      const one = (title: string) => {
        const found = posts.filter((f) => f.properties.title === title)
        assert.equal(found.length, 1, title)
        return found[0]!
      }
      // WordPress ids kept where free; the page's id 2 was taken.
      assert.equal(one('Beach at Palm Beach').properties.id, 102)
      assert.notEqual(one('About us').properties.id, 2)
      assert.equal(one('About us').properties.type, 'page')
      assert.equal(one('Colosseum').properties.type, 'landmark')
      // Statuses, dates (GMT), slugs made unique per type, authors by login.
      assert.deepEqual(
        posts
          .filter((f) => Number(f.properties.id) >= 101)
          .map((f) => f.properties.status)
          .sort(),
        ['draft', 'future', 'pending', 'private', 'publish', 'publish', 'publish', 'publish', 'publish', 'publish', 'publish', 'trash'],
      )
      assert.equal(one('Beach at Palm Beach').properties.date, '2020-05-03T13:00:00.000Z')
      // Content as WordPress rendered it: blocks by its parser, comments gone, cleaned; classic content with autop.
      // The old site's uploads, any size of them, are the photos imported here; one not imported is a link to the old.
      const [rome] = await queryRows<{ file_path: string }>(db.url, 'SELECT file_path FROM attachments WHERE id = 202')
      assert.equal(
        one('Colosseum').properties.content,
        [
          '<p>We arrived at <strong>the Colosseum</strong> at dawn.</p>',
          '<h3>Inside</h3>',
          // The saved HTML between inner blocks is kept as WordPress keeps it, blank lines and all.
          // A link to the old site's post is its page here.
          '<ol>\n<li>The arena</li>\n\n\n\n<li>The <a href="/post/eiffel-tower">hypogeum</a></li>\n</ol>',
          '<blockquote>\n<p>While stands the Coliseum, Rome shall stand.</p>\n<cite>Byron</cite></blockquote>',
          '<hr />',
          '<p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ" rel="noopener">https://www.youtube.com/watch?v=dQw4w9WgXcQ</a></p>',
          `<figure><a href="/uploads/${rome!.file_path}"><img src="/uploads/${rome!.file_path}" alt="The arena at dawn" loading="lazy" decoding="async" /></a><figcaption>The arena</figcaption></figure>`,
          '<figure><a href="https://travels.example/wp-content/uploads/2019/01/never-exported-300x200.jpg" rel="noopener">A photo left behind</a></figure>',
        ].join('\n'),
      )
      assert.equal(one('Colosseum').properties.excerpt, 'The Flavian amphitheatre & its arena.', "the excerpt's text")
      // Tags by name, ignoring case: "Sunny" is the Eiffel Tower's "sunny"; entities decoded as WordPress shows them.
      assert.deepEqual(one('Colosseum').properties.tags, ['Ruins & ancient Rome', 'sunny'])
      assert.deepEqual(
        (await byTitle('Eiffel Tower')).map((f) => f.properties.tags),
        [['sunny'], undefined],
      )
      assert.equal(one('Beach at Palm Beach').properties.content, '<p>Sand.<br />\nSea.</p>\n<p>Sun &amp; <em>wind</em>.</p>')
      assert.equal(one('Beach at Palm Beach').properties.excerpt, undefined, 'no excerpt: none exported')
      assert.equal(one('Draft about Lyon').properties.date, '2020-06-01T09:00:00.000Z', 'a draft with no GMT date keeps its local date')
      assert.equal(one('Draft about Lyon').properties.slug, 'draft-about-lyon', 'a draft without a slug gets one from its title')
      assert.deepEqual((await byTitle('Eiffel Tower')).map((f) => f.properties.slug).sort(), ['eiffel-tower', 'eiffel-tower-2'])
      assert.equal(one('Beach at Palm Beach').properties.author, 'ben@travels.example')
      // Geodata meta: geo_public 0 hides, missing means public (exact, the default), geo_precision refines a public
      // one (docs/privacy.md); broken coordinates leave none.
      assert.deepEqual(one('Beach at Palm Beach').geometry?.coordinates, [-80.0364, 26.7056])
      assert.equal(one('Beach at Palm Beach').properties.location_precision, 'exact')
      assert.equal(one('Secret garden').properties.geo_public, false)
      assert.equal(one('Secret garden').properties.location_precision, 'hidden')
      assert.equal(one('Colosseum').properties.location_precision, 'approximate')
      assert.equal(one('Colosseum').properties.address, 'Piazza del Colosseo, Roma')
      assert.equal(one('Broken coordinates').geometry, null)
      // Categories: the tree, whatever order the export listed it in; term names unescaped.
      assert.deepEqual((await byTitle('Eiffel Tower')).map((f) => f.properties.categories).sort(), [['Europe > France'], ['Europe > France > Paris']])
      assert.deepEqual(one('Beach at Palm Beach').properties.categories, ['Food & Drink'])
      assert.deepEqual(one('Already here').properties.categories, ['Europe'], 'an existing category is reused')

      // Attachments keep their WordPress ids too (WordPress numbers posts and attachments in one sequence); the map
      // has every item of the file that is on the site.
      const attachments = await queryRows<{ id: number; post_id: number }>(db.url, 'SELECT id, post_id FROM attachments ORDER BY id')
      assert.deepEqual(
        attachments.map((a) => [Number(a.id), Number(a.post_id)]),
        [
          [201, 105],
          [202, 105],
          [203, 102],
          [205, 102],
        ],
      )
      const ids = JSON.parse(readFileSync(map, 'utf8')) as { posts: Record<string, number>; attachments: Record<string, number> }
      assert.deepEqual(ids.attachments, { 201: 201, 202: 202, 203: 203, 205: 205 })
      assert.equal(ids.posts['2'], one('About us').properties.id)
      assert.equal(ids.posts['2'], 112)
      assert.deepEqual(
        Object.entries(ids.posts).filter(([wp, id]) => Number(wp) !== id),
        [['2', 112]],
      )
      assert.equal(Object.keys(ids.posts).length, 12)
    })

    test('attachments keep their post, order and title; their files are stored and their GPS read', () => {
      const originals = path.join(dir, 'uploads', 'originals')
      const files = readdirSync(originals, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.jpg'))
      assert.equal(files.length, 4)
      const rome = files.find((f) => f.includes('rome'))!
      assert.ok(readGps(readFileSync(path.join(originals, rome))))
      assert.equal(readGps(readFileSync(path.join(dir, 'uploads', 'public', rome))), null, 'the public copy has no GPS')
    })

    test('a JPEG cut short is kept as WordPress had it: its file and GPS, no sizes; pages show only photos that have sizes', async () => {
      const [cut] = await queryRows<{ latitude: number | null; sizes: number | bigint }>(
        db.url,
        `SELECT a.latitude, (SELECT count(*) FROM attachment_renditions r WHERE r.attachment_id = a.id) AS sizes FROM attachments a WHERE a.id = 205`,
      )
      assert.ok(cut, 'imported under its WordPress id')
      assert.equal(Number(cut.sizes), 0)
      assert.equal(typeof cut.latitude, 'number', 'its GPS, read from the part that is there')
    })

    test('a second run imports nothing twice, and its map is the first one', async () => {
      const before = await exported()
      const map = path.join(dir, 'ids-again.json')
      const run = await places('import-wxr', SITE, '--uploads', UPLOADS, '--map', map)
      assert.equal(run.status, 0, run.stderr)
      assert.match(run.stdout, /Imported 0 posts, 0 categories and 0 attachments; 16 items were already imported\./)
      assert.doesNotMatch(run.stdout, /got new ids|Set from the export/)
      assert.deepEqual(await exported(), before)
      assert.deepEqual(JSON.parse(readFileSync(map, 'utf8')), JSON.parse(readFileSync(path.join(dir, 'ids.json'), 'utf8')))
    })

    test('--map into a folder that cannot be written fails before anything is imported', async () => {
      const run = await places('import-wxr', SITE, '--map', path.join(dir, 'no-such-folder', 'ids.json'))
      assert.equal(run.status, 1)
      assert.match(run.stderr, /no-such-folder/)
    })

    test('malformed XML or a missing file imports nothing and says why', async () => {
      const before = await exported()
      const malformed = await places('import-wxr', path.join('test', 'fixtures', 'wxr', 'malformed.xml'))
      assert.equal(malformed.status, 1)
      assert.match(malformed.stderr, /Nothing was imported\. The file is not well-formed XML \(line \d+\)/)
      const notWxr = path.join(dir, 'feed.xml')
      writeFileSync(notWxr, '<?xml version="1.0"?><feed><entry/></feed>')
      assert.match((await places('import-wxr', notWxr)).stderr, /not a WordPress export: its root element is <feed>/)
      assert.match((await places('import-wxr', path.join(dir, 'nope.xml'))).stderr, /Cannot read .*nope\.xml: no such file/)
      assert.deepEqual(await exported(), before)
    })

    test('a post the database refuses half-way imports nothing and says why', async () => {
      // The database refuses the 1,000th post (a trigger of the test's), which ends a chunk on both databases; its
      // chunk is written while the import reads on (lib/places/batch.ts). The items are looked up 500 at a time, and
      // a revision (left out) first makes that post the first of its 500: the import's next query of its own is the
      // category that the 490th post after it is the first to name. It waits for the write and reports its error,
      // which PostgreSQL would otherwise hide behind "current transaction is aborted" (SQLite's next chunk finds it).
      const item = (index: number) => `<item><title><![CDATA[${index === 1_000 ? 'Refused' : `Bulk ${index}`}]]></title>
        <wp:post_id>${9_000 + index}</wp:post_id><wp:status><![CDATA[publish]]></wp:status>
        <wp:post_type><![CDATA[${index === 0 ? 'revision' : 'post'}]]></wp:post_type>
        ${index === 1_490 ? '<category domain="category" nicename="late"><![CDATA[Late]]></category>' : ''}</item>`
      const file = path.join(dir, 'refused.xml')
      writeFileSync(
        file,
        `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
${Array.from({ length: 2_001 }, (_, index) => item(index)).join('\n')}
</channel></rss>`,
      )
      const before = await exported()
      const run = await refusingPosts(db.url, () => placesIn(env, 'import-wxr', file))
      assert.equal(run.status, 1, run.stderr)
      assert.equal(run.stderr.trim(), 'places import-wxr: refused by the test')
      assert.deepEqual(await exported(), before)
    })

    describe('what the routes serve afterwards', () => {
      let server: RunningServer
      before(async () => {
        server = await startServer({ DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR! })
      })
      after(() => server.stop())

      test('the published posts with public geodata, newest first, with their pages', async () => {
        const collection = (await (await fetch(`${server.url}/places/v1/geojson`)).json()) as {
          features: { geometry: { coordinates: number[] }; properties: { id: number; title: string; url: string; address: string } }[]
        }
        assert.deepEqual(
          collection.features.map((f) => f.properties.title),
          ['Beach at Palm Beach', 'Eiffel Tower', 'Eiffel Tower'],
        )
        assert.deepEqual(
          collection.features.map((f) => f.properties.id),
          [102, 111, 101],
        )
        assert.equal(collection.features[2]!.properties.address, 'Champ de Mars, Paris')
        const landmarks = (await (await fetch(`${server.url}/places/v1/geojson?post_type=landmark`)).json()) as {
          features: { properties: { title: string } }[]
        }
        assert.deepEqual(
          landmarks.features.map((f) => f.properties.title),
          ['Colosseum'],
        )
        const page = await fetch(collection.features[0]!.properties.url)
        assert.equal(page.status, 200)
        assert.match(await page.text(), /Beach at Palm Beach/)
        assert.doesNotMatch(await (await fetch(collection.features[0]!.properties.url)).text(), /comment/i, 'a post without comments shows none, nor a form')
      })

      test("a post's approved comments, threaded and cleaned, read-only; nothing of the others, nor any commenter's email", async () => {
        const html = await (await fetch(`${server.url}/landmark/colosseum`)).text()
        const section = /<section class="post-comments"[^]*?<\/section>/.exec(html)?.[0] ?? ''
        assert.match(section, /<h2 id="post-comments-heading">3<!-- --> <!-- -->comments<\/h2>/)
        // Giulia's, with autop's paragraphs and her link; Ana's reply inside it; Bob's, whose parent was spam, at the top.
        assert.match(
          section,
          /Giulia<\/a>[^]*<p>Go at dawn: <strong>no queues<\/strong>\.<br \/>\nThe hypogeum tour is worth it\.<\/p>\n<p>Book ahead! <a>tickets<\/a><\/p>/,
        )
        assert.match(section, /href="https:\/\/giulia\.example\/blog" rel="external nofollow ugc noopener"/)
        assert.match(section, /<ol class="comment-list"><li><article[^>]*aria-label="Comment by Ana"/, 'the reply in a list of its own, under the comment')
        assert.match(section, /<strong>Bob &amp; Co<\/strong>/, 'a javascript: address is no link; the name decoded, as WordPress shows it')
        assert.match(section, /<a href="https:\/\/cheap\.example\/" rel="nofollow ugc noopener">a link<\/a>/, "a commenter's link is theirs")
        assert.match(section, /Comments are closed\./)
        // The old site's upload in the content is the photo imported here, served as its sizes.
        assert.match(
          html,
          /<img src="[^"]*\/uploads\/renditions\/[0-9a-f]+\.jpg" srcset="[^"]+ 160w, [^"]+" sizes="\(max-width: 48rem\) 100vw, 46rem" width="\d+" height="\d+" alt="The arena at dawn"/,
        )
        assert.doesNotMatch(section, /are shown/, 'all of them are')
        for (const hidden of ['Not yet approved', 'Cheap tickets', 'Linked here', 'readers.example', '192.0.2', 'alert', '<form', '<textarea']) {
          assert.ok(!html.includes(hidden), hidden)
        }
        for (const id of [103, 104, 106, 107, 108, 109, 110]) {
          assert.equal((await fetch(`${server.url}/places/v1/geojson/${id}`)).status, 404, `post ${id} is not served`)
        }
      })

      test("the old site's addresses answer 301 to the posts' pages here: the permalink, ?p= and ?page_id= by WordPress id", async () => {
        const moved = async (path: string) => {
          const response = await fetch(`${server.url}${path}`, { redirect: 'manual' })
          return [response.status, response.headers.get('location')]
        }
        for (const path of ['/2020/05/eiffel-tower', '/2020/05/Eiffel-Tower', '/?p=101']) {
          assert.deepEqual(await moved(path), [301, '/post/eiffel-tower'], path)
        }
        // With WordPress's trailing slash: Next.js takes it off first (308), then the same 301.
        assert.equal((await fetch(`${server.url}/2020/05/eiffel-tower/`)).url, `${server.url}/post/eiffel-tower`)
        assert.deepEqual(await moved('/?page_id=2'), [301, '/page/about'], 'the page that was renumbered (2 → 112)')
        assert.deepEqual(await moved('/?p=102&utm_source=x'), [301, '/post/beach'])
        assert.equal((await moved('/?p=106'))[0], 200, "a draft's old address is only the home page")
        assert.equal((await moved('/2020/05/no-such-post'))[0], 404)
        assert.equal((await moved('/post/eiffel-tower'))[0], 200, 'a page here is never sent away')
      })

      test('the GPS route names the photo by its WordPress id', async () => {
        const secret = (await places('app-password', 'create', '--user', 'admin@example.org', '--name', 'wxr')).stdout.trimEnd().split('\n').at(-1)!
        const authorization = `Basic ${Buffer.from(`admin@example.org:${secret}`).toString('base64')}`
        const response = await fetch(`${server.url}/places/v1/attachment-exif-gps/105`, { headers: { Authorization: authorization } })
        assert.equal(response.status, 200)
        const gps = (await response.json()) as { attachment_id: number; attachment_title: string }
        assert.deepEqual([gps.attachment_id, gps.attachment_title], [202, 'rome'])
      })
    })
  })
}

/** A WordPress export of one published post and an attachment for each of `files` (paths under wp-content/uploads). */
function exportWithAttachments(files: string[]): string {
  const attachment = (file: string, i: number) => `
  <item><title><![CDATA[photo ${i}]]></title><guid isPermaLink="false">https://escape.example/uploads/${i}</guid>
    <wp:post_id>${900 + i}</wp:post_id><wp:status><![CDATA[inherit]]></wp:status><wp:post_parent>800</wp:post_parent>
    <wp:menu_order>${i}</wp:menu_order><wp:post_type><![CDATA[attachment]]></wp:post_type>
    <wp:postmeta><wp:meta_key><![CDATA[_wp_attached_file]]></wp:meta_key><wp:meta_value><![CDATA[${file}]]></wp:meta_value></wp:postmeta></item>`
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
  <wp:wxr_version>1.2</wp:wxr_version>
  <item><title><![CDATA[Escape]]></title><guid isPermaLink="false">https://escape.example/?p=800</guid>
    <wp:post_id>800</wp:post_id><wp:post_date><![CDATA[2020-05-01 12:00:00]]></wp:post_date><wp:post_name><![CDATA[escape]]></wp:post_name>
    <wp:status><![CDATA[publish]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type></item>${files.map(attachment).join('')}
</channel></rss>`
}

describe('places import-wxr reads attachment files only from inside --uploads', () => {
  let db: TestDatabase
  before(async () => {
    db = await createTestDatabase('sqlite')
  })
  after(() => db.drop())

  test('a symbolic link (to a file or a folder) or a .. out of the uploads folder is a warning naming the item; the rest is imported', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'places-wxr-escape-'))
    t.after(() => rmSync(dir, { recursive: true, force: true }))
    // Somewhere else on the machine: a real photo, with GPS, that the export's uploads folder points at.
    const outside = path.join(dir, 'elsewhere')
    mkdirSync(outside)
    const secret = readFileSync(path.join(UPLOADS, '2020', '05', 'rome.jpg'))
    writeFileSync(path.join(outside, 'secret.jpg'), secret)
    const uploads = path.join(dir, 'wp-content', 'uploads')
    mkdirSync(path.join(uploads, '2020', '05'), { recursive: true })
    copyFileSync(path.join(UPLOADS, '2020', '05', 'plain.jpg'), path.join(uploads, '2020', '05', 'plain.jpg'))
    symlinkSync(path.join(outside, 'secret.jpg'), path.join(uploads, '2020', '05', 'link.jpg'))
    symlinkSync(outside, path.join(uploads, '2020', '06'))
    // A link that stays inside the folder is fine.
    symlinkSync(path.join(uploads, '2020', '05', 'plain.jpg'), path.join(uploads, '2020', '05', 'alias.jpg'))
    const wxr = path.join(dir, 'escape.xml')
    writeFileSync(
      wxr,
      exportWithAttachments(['2020/05/plain.jpg', '2020/05/link.jpg', '2020/06/secret.jpg', '../../elsewhere/secret.jpg', '2020/05/alias.jpg']),
    )

    const storedIn = path.join(dir, 'stored')
    const env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: storedIn }
    const run = await placesIn(env, 'import-wxr', wxr, '--uploads', uploads)
    assert.equal(run.status, 0, run.stderr)
    assert.match(run.stdout, /Imported 1 posts, 0 categories and 2 attachments/)
    for (const [i, file] of [
      [1, '2020/05/link.jpg'],
      [2, '2020/06/secret.jpg'],
      [3, '../../elsewhere/secret.jpg'],
    ] as const) {
      const warning = new RegExp(
        `attachment item "photo ${i}" \\(WordPress id ${900 + i}, line \\d+\\): its file "${file.replace(/\./g, '\\.')}" lies outside the uploads folder; not imported`,
      )
      assert.match(run.stderr, warning)
    }
    const stored = readdirSync(path.join(storedIn, 'originals'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())
    assert.equal(stored.length, 2)
    for (const entry of stored) assert.notDeepEqual(readFileSync(path.join(entry.parentPath, entry.name)), secret, 'the file outside was not copied in')
  })
})
