import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { freeSlug } from '../../lib/slugs'
import { placesProcess, runPlaces } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { execute, queryRows, refusingPosts, writeLockHeld } from '../support/sql'
import { waitFor } from '../support/wait'

// An import large enough for the bulk path (lib/db, bulkInsert): on SQLite, the tables' indexes and per-row triggers
// are dropped inside the import's transaction and made again before it commits. Whatever happens to the import
// (it succeeds, it fails at its last feature, it is killed half-way), the schema afterwards is the schema before,
// and the data is all of the file or none of it.

const LARGE = 12_000
const TITLES = ['Harbour light', 'Old mill', 'Harbour light by night']

/** The command line on the database at `url`; runPlaces checks it exits 0. */
const places = (url: string, ...args: string[]) => runPlaces({ ...process.env, DATABASE_URL: url }, ...args)

const dir = mkdtempSync(path.join(tmpdir(), 'places-bulk-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** `count` places, three titles among them all (slugs -2, -3… by the thousand), two categories; then `more`. */
function collection(name: string, count: number, last: Record<string, unknown> = {}, more: object[] = []): string {
  const features = Array.from({ length: count }, (_, index) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [-10 + (index % 200) / 10, 40 + Math.floor(index / 200) / 10] },
    properties: {
      title: TITLES[index % 3],
      address: `${index} Quay Street`,
      categories: index % 2 ? ['Coast > Lighthouses'] : ['Mills'],
      ...(index === count - 1 ? last : {}),
    },
  }))
  const target = path.join(dir, name)
  writeFileSync(target, JSON.stringify({ type: 'FeatureCollection', features: [...features, ...more] }))
  return target
}

/**
 * Text that a bulk path could garble: CSV's and COPY's own characters, line breaks, other scripts, nothing at all.
 * Content as an import keeps it (HTML, lib/content/html.ts), so that it comes back as written.
 */
const AWKWARD = [
  { title: 'Quote " and "" comma, here', address: 'Line one\nline two\r\nthree', content: '', date: '2020-02-29T23:59:59.123Z' },
  { title: 'Back\\slash \\N and \\.', address: '\\.', content: '<p>\\.<br />\nend</p>', date: '2001-01-01T00:00:00.000Z' },
  { title: 'Tab\there; Ωμέγα, 東京, 🚲', address: '', content: '<p>"quoted", \'single\'</p>', date: '1999-12-31T12:00:00.001Z' },
]

/** The schema of the tables an import writes: every index and trigger, with its definition. */
async function schemaOf(db: TestDatabase): Promise<string[]> {
  const rows =
    db.kind === 'sqlite'
      ? await queryRows<{ row: string }>(db.url, `SELECT "type" || ' ' || "name" || ': ' || coalesce("sql", '') AS "row" FROM "sqlite_master" ORDER BY "name"`)
      : await queryRows<{ row: string }>(
          db.url,
          `SELECT 'index ' || indexname || ': ' || indexdef AS "row" FROM pg_indexes WHERE schemaname = 'public'
           UNION ALL SELECT 'trigger ' || tgname || ': ' || pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
        )
  return rows.map(({ row }) => row)
}

async function state(db: TestDatabase): Promise<{ posts: number; links: number; version: number }> {
  const [row] = await queryRows<{ posts: number; links: number; version: number }>(
    db.url,
    `SELECT (SELECT count(*) FROM posts) AS posts, (SELECT count(*) FROM post_categories) AS links, (SELECT data_version FROM site_state WHERE id = 1) AS version`,
  )
  return { posts: Number(row!.posts), links: Number(row!.links), version: Number(row!.version) }
}

for (const kind of databaseKinds) {
  describe(`an import of ${LARGE} places on ${kind}`, () => {
    let db: TestDatabase
    let schema: string[]
    before(async () => {
      db = await createTestDatabase(kind)
      await places(db.url, 'migrate')
      await places(db.url, 'user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator')
      schema = await schemaOf(db)
      assert.ok(schema.some((row) => /posts_listing_idx/.test(row)) && schema.length > 10, schema.join('\n'))
    })
    after(() => db.drop())

    test('that fails at its last feature imports nothing and leaves the schema as it was', async () => {
      const before = await state(db)
      const failed = placesProcess({ ...process.env, DATABASE_URL: db.url }, ['import', collection('bad.geojson', LARGE, { author: 'nobody@example.org' })])
      assert.equal(failed.status, 1)
      assert.match(failed.stderr, new RegExp(`feature ${LARGE - 1}: properties\\.author: no user has the email nobody@example.org`))
      assert.deepEqual(await state(db), before)
      assert.deepEqual(await schemaOf(db), schema)
    })

    test('refused by the database half-way imports nothing and leaves the schema as it was', async () => {
      // The database refuses one row (a trigger of the test's): its chunk fails while the import gathers the next one
      // (lib/places/batch.ts writes a chunk as it reads on), and the error reaches the operator all the same, found by
      // the next chunk's write or by the import's next query of its own: the slugs of the first page, read once the
      // refused chunk has failed and before the next is written, which PostgreSQL would refuse as "current transaction
      // is aborted". LARGE is a multiple of both databases' chunk sizes: the refused post starts a chunk, then ends one.
      const plain = (count: number, type = 'post') =>
        Array.from({ length: count }, (_, index) => ({ type: 'Feature', geometry: null, properties: { type, title: `Plain ${index}` } }))
      const files = [
        collection('refused-mid.geojson', LARGE / 2 + 1, { title: 'Refused' }, plain(LARGE / 2)),
        collection('refused-then-page.geojson', LARGE, { title: 'Refused' }, [...plain(990), ...plain(1, 'page')]),
      ]
      const before = await state(db)
      await refusingPosts(db.url, () => {
        for (const file of files) {
          const failed = placesProcess({ ...process.env, DATABASE_URL: db.url }, ['import', file])
          assert.equal(failed.status, 1, failed.stderr)
          // As the command line reports an error (bin/cli.ts): no rejection nobody awaited, no warning of the driver's.
          assert.equal(failed.stderr.trim(), 'places import: refused by the test', path.basename(file))
        }
      })
      assert.deepEqual(await state(db), before)
      assert.deepEqual(await schemaOf(db), schema)
    })

    test('killed half-way leaves nothing and the schema as it was', async (t) => {
      if (spawnSync('script', ['--version']).status !== 0) return t.skip('script (util-linux) is missing: it shows the import its terminal')
      const before = await state(db)
      const total = 5 * LARGE
      const file = collection('killed.geojson', total)
      // On a terminal (util-linux's `script`), as an operator runs it, the import shows how many posts are written;
      // it is killed once the first thousands are in, well before the last.
      const child = spawn('script', ['-qec', `node bin/places.mjs import '${file}'`, '/dev/null'], { env: { ...process.env, DATABASE_URL: db.url } })
      const exited = new Promise((resolve) => child.on('exit', resolve))
      let screen = ''
      const written = await new Promise<number>((resolve, reject) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          screen += chunk
          const shown = Number([...screen.matchAll(/Importing \[[#-]+\] (\d+)\//g)].at(-1)?.[1] ?? 0)
          if (shown >= 2_000) resolve(shown)
        })
        void exited.then(() => reject(new Error(`the import ended before it was killed: ${screen}`)))
      })
      child.kill('SIGKILL') // the terminal closes: the command on it is hung up, and the import with it
      await exited
      assert.ok(written < total, `killed at ${written} of ${total} posts written`)
      await waitFor('the lock to be released', async () => !(await writeLockHeld(db.url, 'posts')) || undefined)
      assert.deepEqual(await state(db), before)
      assert.deepEqual(await schemaOf(db), schema)
    })

    test('imports all of it: the same schema after, slugs as one at a time would make them, found by search, the version moved', async () => {
      const before = await state(db)
      const awkward = AWKWARD.map((properties) => ({ type: 'Feature', geometry: null, properties: { ...properties, status: 'draft' } }))
      const all = (await places(db.url, 'import', collection('good.geojson', LARGE, {}, awkward))).split('\n').map(Number)
      const ids = all.slice(0, LARGE)
      assert.equal(all.length, LARGE + AWKWARD.length)
      // Every character back as it was written, dates to the millisecond.
      type Exported = { features: { properties: { id: number; title: string; address: string; content: string; date: string } }[] }
      const exported = (JSON.parse(await places(db.url, 'export', '--all-statuses')) as Exported).features.filter((f) =>
        all.slice(LARGE).includes(f.properties.id),
      )
      assert.deepEqual(
        exported.map(({ properties: { title, address, content, date } }) => ({ title, address, content, date })).sort((a, b) => a.title.localeCompare(b.title)),
        [...AWKWARD].sort((a, b) => a.title.localeCompare(b.title)),
      )
      // The version moved, as readers see it once, at the commit (by how much differs: PostgreSQL's triggers bump it
      // once a statement, SQLite's once a row, set aside here for one bump at the end).
      const now = await state(db)
      assert.deepEqual({ ...now, version: now.version > before.version }, { posts: LARGE + AWKWARD.length, links: LARGE, version: true })
      assert.deepEqual(await schemaOf(db), schema)
      // Slugs as the rule makes them one post at a time (lib/slugs.ts), here 4,000 of each title.
      const taken = new Set<string>()
      const expected = Array.from({ length: LARGE }, (_, index) => {
        const slug = freeSlug(TITLES[index % 3]!, (s) => taken.has(s))
        taken.add(slug)
        return slug
      })
      const rows = await queryRows<{ id: number; slug: string }>(db.url, 'SELECT id, slug FROM posts WHERE id <= ? ORDER BY id', [ids.at(-1)])
      assert.deepEqual(
        rows.map(({ id }) => Number(id)),
        ids,
      )
      assert.deepEqual(
        rows.map(({ slug }) => slug),
        expected,
      )
      assert.equal(expected.at(-1), `harbour-light-by-night-${LARGE / 3}`)
      // The search's index holds the new posts (SQLite: filled after the bulk write; PostgreSQL: its table's triggers).
      assert.equal(await searchCount(db, 'Quay Street'), LARGE)
      if (db.kind === 'sqlite') {
        // FTS5 finds its index whole and agreeing with the posts (with rank 1 it compares the two; it throws
        // otherwise), and the bulk write's larger buffer for it is set back (to FTS5's default: it was not set before).
        await execute(db.url, `INSERT INTO posts_search(posts_search, rank) VALUES ('integrity-check', 1)`)
        assert.deepEqual(await queryRows(db.url, `SELECT v FROM posts_search_config WHERE k = 'hashsize'`), [{ v: 1 << 20 }])
      }
      // Another import reads those slugs back (in pages: more than one here) and goes on from them.
      const next = (await places(db.url, 'import', collection('next.geojson', 3))).split('\n').map(Number)
      const nextRows = await queryRows<{ slug: string }>(db.url, 'SELECT slug FROM posts WHERE id >= ? ORDER BY id', [next[0]])
      assert.deepEqual(
        nextRows.map(({ slug }) => slug),
        TITLES.map((title) => freeSlug(title, (s) => taken.has(s))),
      )
    })
  })
}

/** How many public places the database's search finds for `text` (SQLite: the trigram table, as lib/db asks it). */
async function searchCount(db: TestDatabase, text: string): Promise<number> {
  const sql =
    db.kind === 'sqlite'
      ? `SELECT count(*) AS n FROM posts_search WHERE posts_search MATCH '"${text}"'`
      : `SELECT count(*) AS n FROM posts_search p WHERE p.title LIKE lower('%${text}%') OR p.public_address LIKE lower('%${text}%')`
  const [row] = await queryRows<{ n: number }>(db.url, sql)
  return Number(row!.n)
}
