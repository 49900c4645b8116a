import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { after, before, describe, test } from 'node:test'
import { get_dmmf } from '@prisma/prisma-schema-wasm'
import Database from 'better-sqlite3'
import pg from 'pg'
import { createDb, driverOf } from '../../lib/db'
import { Prisma } from '../../lib/generated/sqlite/client'
import { REWRITE_BATCH } from '../../lib/db/dialect'
import { migrate, readMigrations } from '../../lib/migrate'
import { createTestDatabase, databaseKinds, type DatabaseKind, type TestDatabase } from '../support/databases'

// Prisma's migrate engine cannot run here, so nothing but this test checks that the hand-written SQL migrations
// build the schema the Prisma client was generated for: every model's table, column, type, nullability, key,
// index and foreign key, read back from the migrated database and compared with Prisma's own reading of the schema.

type DmmfField = {
  name: string
  kind: string
  type: string
  dbName?: string | null
  isRequired: boolean
  isList: boolean
  relationFromFields?: string[]
  relationToFields?: string[]
  relationOnDelete?: string
}
type DmmfModel = { name: string; dbName: string | null; fields: DmmfField[] }
type DmmfIndex = { model: string; type: 'id' | 'unique' | 'normal' | 'fulltext'; dbName?: string | null; fields: { name: string }[] }
type Column = { type: string; notNull: boolean }
type Index = { columns: string[]; unique: boolean }
type ForeignKey = { columns: string[]; table: string; to: string[]; onDelete: string }
type Introspected = {
  tables: Map<string, Map<string, Column>>
  indexes: Map<string, Index>
  primaryKeys: Map<string, string[]>
  foreignKeys: Map<string, ForeignKey[]>
}

const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', readFileSync('prisma/schema.prisma', 'utf8')]] }))) as {
  datamodel: { models: DmmfModel[]; indexes: DmmfIndex[] }
}
const models = dmmf.datamodel.models

const COLUMN_TYPES: Record<DatabaseKind, Record<string, string>> = {
  sqlite: { Int: 'INTEGER', BigInt: 'INTEGER', String: 'TEXT', Float: 'REAL', Boolean: 'BOOLEAN', DateTime: 'DATETIME', Bytes: 'BLOB' },
  postgresql: {
    Int: 'integer',
    BigInt: 'bigint',
    String: 'text',
    Float: 'double precision',
    Boolean: 'boolean',
    DateTime: 'timestamp(3) without time zone',
    Bytes: 'bytea',
  },
}
const ON_DELETE: Record<string, string> = { Cascade: 'CASCADE', SetNull: 'SET NULL', Restrict: 'RESTRICT', NoAction: 'NO ACTION' }

const tableOf = (model: DmmfModel) => model.dbName ?? model.name
const modelByName = new Map(models.map((m) => [m.name, m]))
const columnOf = (model: DmmfModel, fieldName: string) => {
  const field = model.fields.find((f) => f.name === fieldName)!
  return field.dbName ?? field.name
}

function introspectSqlite(url: string): Introspected {
  const db = new Database(url.replace(/^file:/, ''), { readonly: true })
  const result: Introspected = { tables: new Map(), indexes: new Map(), primaryKeys: new Map(), foreignKeys: new Map() }
  const tables = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string; sql: string }[]
  // The public search's FTS5 table and its shadow tables hold an index, not a model's rows (migration 0009).
  const virtual = tables.filter((t) => t.sql.startsWith('CREATE VIRTUAL TABLE')).map((t) => t.name)
  const isIndex = (name: string) => virtual.some((v) => name === v || name.startsWith(`${v}_`))
  for (const { name } of tables.filter((t) => !isIndex(t.name))) {
    const columns = db.prepare(`SELECT name, type, "notnull" AS required, pk FROM pragma_table_info(?)`).all(name) as {
      name: string
      type: string
      required: number
      pk: number
    }[]
    result.tables.set(name, new Map(columns.map((c) => [c.name, { type: c.type, notNull: c.required === 1 || c.pk > 0 }])))
    result.primaryKeys.set(
      name,
      columns
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
    )
    for (const index of db.prepare(`SELECT name, "unique", origin, partial FROM pragma_index_list(?)`).all(name) as {
      name: string
      unique: number
      origin: string
      partial: number
    }[]) {
      if (index.origin === 'pk' || index.partial) continue
      const columns = (db.prepare(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`).all(index.name) as { name: string }[]).map((c) => c.name)
      result.indexes.set(index.name, { columns, unique: index.unique === 1 })
    }
    const fks = db.prepare(`SELECT id, "table", "from", "to", on_delete AS onDelete FROM pragma_foreign_key_list(?) ORDER BY id, seq`).all(name) as {
      id: number
      table: string
      from: string
      to: string
      onDelete: string
    }[]
    const grouped = new Map<number, ForeignKey>()
    for (const fk of fks) {
      const entry = grouped.get(fk.id) ?? { columns: [], table: fk.table, to: [], onDelete: fk.onDelete }
      entry.columns.push(fk.from)
      entry.to.push(fk.to)
      grouped.set(fk.id, entry)
    }
    result.foreignKeys.set(name, [...grouped.values()])
  }
  db.close()
  return result
}

async function introspectPostgres(url: string): Promise<Introspected> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const result: Introspected = { tables: new Map(), indexes: new Map(), primaryKeys: new Map(), foreignKeys: new Map() }
  const columns = await client.query<{ table_name: string; column_name: string; type: string; not_null: boolean }>(`
    SELECT c.relname AS table_name, a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`)
  // Not models' rows: the public search's copy of posts' text for its index (migration 0011), and what transactions
  // not yet committed changed, for the data version (0022).
  const notModels = ['posts_search', 'pending_commits', 'pending_changes']
  for (const row of columns.rows.filter((r) => !notModels.includes(r.table_name))) {
    if (!result.tables.has(row.table_name)) result.tables.set(row.table_name, new Map())
    result.tables.get(row.table_name)!.set(row.column_name, { type: row.type, notNull: row.not_null })
  }
  const indexes = await client.query<{
    table_name: string
    index_name: string
    columns: string[]
    is_unique: boolean
    is_primary: boolean
    is_partial: boolean
  }>(`
    SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
           ix.indpred IS NOT NULL AS is_partial,
           ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord)::text[] AS columns
    FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`)
  for (const row of indexes.rows) {
    if (row.is_primary) result.primaryKeys.set(row.table_name, row.columns)
    else if (!row.is_partial) result.indexes.set(row.index_name, { columns: row.columns, unique: row.is_unique })
  }
  const fks = await client.query<{ table_name: string; columns: string[]; ref_table: string; ref_columns: string[]; on_delete: string }>(`
    SELECT t.relname AS table_name, r.relname AS ref_table,
           ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS columns,
           ARRAY(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.o)::text[] AS ref_columns,
           CASE con.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'r' THEN 'RESTRICT' WHEN 'a' THEN 'NO ACTION' ELSE 'SET DEFAULT' END AS on_delete
    FROM pg_constraint con JOIN pg_class t ON t.oid = con.conrelid JOIN pg_class r ON r.oid = con.confrelid WHERE con.contype = 'f'`)
  for (const row of fks.rows) {
    const list = result.foreignKeys.get(row.table_name) ?? []
    list.push({ columns: row.columns, table: row.ref_table, to: row.ref_columns, onDelete: row.on_delete })
    result.foreignKeys.set(row.table_name, list)
  }
  await client.end()
  return result
}

for (const kind of databaseKinds) {
  describe(`migrated ${kind} schema`, () => {
    let database: TestDatabase
    let schema: Introspected

    before(async () => {
      database = await createTestDatabase(kind)
      assert.deepEqual(await migrate(database.url), [
        '0001_init.sql',
        '0002_source_guid.sql',
        '0003_session_version.sql',
        '0004_attachment_renditions.sql',
        '0005_post_lifecycle.sql',
        '0006_location_precision.sql',
        '0007_post_trashed_at.sql',
        '0008_attachment_caption_alt.sql',
        '0009_public_search.sql',
        '0010_place_changes.sql',
        ...(kind === 'postgresql' ? ['0011_search_table.sql'] : []),
        '0012_content_html.sql',
        '0013_post_previews.sql',
        '0014_post_excerpt.sql',
        '0015_tags.sql',
        '0016_comments.sql',
        '0017_post_old_paths.sql',
        '0018_site_settings.sql',
        '0019_server_builds.sql',
        '0020_sign_in_limits.sql',
        '0021_job_runs.sql',
        ...(kind === 'postgresql' ? ['0022_data_version_at_commit.sql', '0023_category_moves_by_row.sql'] : []),
        '0024_category_colors.sql',
        '0025_photo_location_source.sql',
        '0026_trips.sql',
      ])
      schema = kind === 'sqlite' ? introspectSqlite(database.url) : await introspectPostgres(database.url)
    })
    after(() => database.drop())

    test('has exactly the tables of the models, plus the migration ledger', () => {
      assert.deepEqual([...schema.tables.keys()].sort(), [...models.map(tableOf), '_places_migrations'].sort())
    })

    for (const model of models) {
      test(`${model.name}: every column with the type and nullability Prisma expects, and no other`, () => {
        const table = schema.tables.get(tableOf(model))!
        const scalars = model.fields.filter((f) => f.kind === 'scalar')
        assert.deepEqual([...table.keys()].sort(), scalars.map((f) => f.dbName ?? f.name).sort())
        for (const field of scalars) {
          const column = table.get(field.dbName ?? field.name)!
          assert.equal(column.type, COLUMN_TYPES[kind][field.type], `${model.name}.${field.name} type`)
          assert.equal(column.notNull, field.isRequired, `${model.name}.${field.name} NOT NULL`)
        }
      })

      test(`${model.name}: primary key, unique and plain indexes as declared`, () => {
        const declared = dmmf.datamodel.indexes.filter((i) => i.model === model.name)
        const id = declared.find((i) => i.type === 'id')!
        assert.deepEqual(
          schema.primaryKeys.get(tableOf(model)),
          id.fields.map((f) => columnOf(model, f.name)),
        )
        for (const index of declared.filter((i) => i.type === 'unique' || i.type === 'normal')) {
          const columns = index.fields.map((f) => columnOf(model, f.name))
          const name = index.dbName ?? `${tableOf(model)}_${columns.join('_')}_${index.type === 'unique' ? 'key' : 'idx'}`
          assert.deepEqual(schema.indexes.get(name), { columns, unique: index.type === 'unique' }, `index ${name}`)
        }
      })

      test(`${model.name}: foreign keys of its relations`, () => {
        const expected = model.fields
          .filter((f) => f.kind === 'object' && f.relationFromFields && f.relationFromFields.length > 0)
          .map((f) => {
            const target = modelByName.get(f.type)!
            return {
              columns: f.relationFromFields!.map((name) => columnOf(model, name)),
              table: tableOf(target),
              to: f.relationToFields!.map((name) => columnOf(target, name)),
              onDelete: ON_DELETE[f.relationOnDelete ?? (f.isRequired ? 'Restrict' : 'SetNull')]!,
            }
          })
        const sortKey = (fk: ForeignKey) => fk.columns.join(',')
        assert.deepEqual(
          [...(schema.foreignKeys.get(tableOf(model)) ?? [])].sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
          expected.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
        )
      })
    }

    test('the Prisma client reads and writes every model, foreign keys enforced, writes bump the data version', async () => {
      const db = createDb(database.url)
      try {
        const version = async () => Number((await db.siteState.findUniqueOrThrow({ where: { id: 1 } })).dataVersion)
        const v0 = await version()
        const user = await db.user.create({ data: { email: 'a@example.com', role: 'author' } })
        assert.equal(await version(), v0, 'users do not change what the public routes show')
        const category = await db.category.create({ data: { name: 'Europe', slug: 'europe' } })
        const post = await db.post.create({
          data: {
            title: 'Paris',
            slug: 'paris',
            publishedAt: new Date('2024-01-02T03:04:05.678Z'),
            authorId: user.id,
            latitude: 48.85,
            longitude: 2.35,
            categories: { create: [{ categoryId: category.id }] },
            attachments: { create: [{ filePath: 'a/b.jpg', mimeType: 'image/jpeg', size: 10, latitude: 1.5, longitude: -2.5 }] },
          },
          include: { categories: true, attachments: true },
        })
        assert.equal(post.publishedAt.toISOString(), '2024-01-02T03:04:05.678Z')
        assert.equal(post.locationPrecision, 'exact')
        assert.equal(post.attachments[0]!.longitude, -2.5)
        assert.ok((await version()) > v0, 'a post write bumps the data version')
        // A published post's first photo is public (`_embed`): its attachments' own writes bump it too; a draft's do not.
        const v1 = await version()
        await db.attachment.update({ where: { id: post.attachments[0]!.id }, data: { position: 1 } })
        assert.ok((await version()) > v1, 'an attachment write bumps the data version')
        const v2 = await version()
        await db.attachmentRendition.create({
          data: { attachmentId: post.attachments[0]!.id, format: 'jpeg', width: 160, height: 120, fileName: 'x.jpg' },
        })
        assert.ok((await version()) > v2, 'a rendition write bumps the data version')
        const draft = await db.post.create({ data: { title: 'Draft', slug: 'draft', status: 'draft', publishedAt: new Date(), authorId: user.id } })
        const v3 = await version()
        const draftPhoto = await db.attachment.create({ data: { postId: draft.id, filePath: 'a/draft.jpg', mimeType: 'image/jpeg', size: 10 } })
        await db.attachmentRendition.create({ data: { attachmentId: draftPhoto.id, format: 'jpeg', width: 160, height: 120, fileName: 'draft.jpg' } })
        await db.attachment.delete({ where: { id: draftPhoto.id } })
        assert.equal(await version(), v3, "a draft's photos change nothing the public sees")
        await db.post.delete({ where: { id: draft.id } })
        await db.appPassword.create({ data: { uuid: 'u1', userId: user.id, name: 'cli', secretHash: 'h' } })
        await assert.rejects(db.post.create({ data: { title: 'x', slug: 'x', publishedAt: new Date(), authorId: 999 } }), 'foreign key on author')
        await assert.rejects(
          db.post.create({ data: { title: 'y', slug: 'y', publishedAt: new Date(), authorId: user.id, latitude: 91, longitude: 0 } }),
          'latitude range check',
        )
        await assert.rejects(
          db.post.create({ data: { title: 'z', slug: 'z', publishedAt: new Date(), authorId: user.id, latitude: 10 } }),
          'latitude without longitude',
        )
        // A post's tags change which places a tag's map holds: their links bump the version, as categories' do.
        const v4 = await version()
        const tag = await db.tag.create({ data: { name: 'Rainy day', slug: 'rainy-day', posts: { create: [{ postId: post.id }] } } })
        assert.ok((await version()) > v4, 'a tag link bumps the data version')
        await assert.rejects(db.tag.create({ data: { name: 'Other', slug: 'rainy-day' } }), 'a tag slug is unique')
        // Comments are shown on post pages only, threaded: they bump nothing.
        const v5 = await version()
        const comment = await db.comment.create({ data: { postId: post.id, authorName: 'Ana', content: '<p>Hi</p>', createdAt: new Date() } })
        await db.comment.create({ data: { postId: post.id, parentId: comment.id, content: '<p>Hello</p>', createdAt: new Date() } })
        assert.equal(await version(), v5, 'comments change nothing the public routes show')
        await db.comment.delete({ where: { id: comment.id } })
        assert.equal((await db.comment.findFirstOrThrow({ where: { postId: post.id } })).parentId, null, 'a reply outlives what it answers')
        await db.post.delete({ where: { id: post.id } })
        assert.equal(await db.attachment.count(), 0, 'attachments go with their post')
        assert.equal(await db.postCategory.count(), 0, 'category links go with their post')
        assert.equal(await db.postTag.count(), 0, 'tag links go with their post')
        assert.equal(await db.comment.count(), 0, 'comments go with their post')
        await db.tag.delete({ where: { id: tag.id } })
        await db.user.delete({ where: { id: user.id } })
        assert.equal(await db.appPassword.count(), 0, 'application passwords go with their user')
      } finally {
        await db.$disconnect()
      }
    })

    test('migrating again applies nothing', async () => {
      assert.deepEqual(await migrate(database.url), [])
    })
  })

  test(`${kind}: migration 0012 makes plain-text content HTML that shows the same, in batches, search folded again`, async () => {
    const database = await createTestDatabase(kind)
    const db = createDb(database.url)
    try {
      const before = readMigrations(kind).filter((m) => m.name < '0012')
      await driverOf(database.url).migrate(database.url, (applied) => before.filter((m) => !applied.has(m.name)))
      const user = await db.user.create({ data: { email: 'a@example.com', role: 'author' } })
      // Posts written by SQL: the client knows the columns of later migrations (excerpt), which the table has not yet.
      const insert = (posts: [title: string, content: string][]) =>
        db.$executeRaw`INSERT INTO "posts" ("title", "slug", "content", "published_at", "author_id", "search_text") VALUES ${Prisma.join(
          posts.map(([title, content]) => Prisma.sql`(${title}, ${title}, ${content}, CURRENT_TIMESTAMP, ${user.id}, ${title})`),
        )}`
      // Past one batch of the rewrite, so that its second batch starts where the first ended.
      await insert(Array.from({ length: REWRITE_BATCH + 1 }, (_, i) => [`p${i}`, `Post ${i} & more`]))
      await insert([
        ['text', 'Tom & Jerry <3 <script>x</script>\r\nline two\n  \n\nSecond "paragraph"'],
        ['empty', ''],
      ])

      assert.deepEqual(await migrate(database.url), [
        '0012_content_html.sql',
        '0013_post_previews.sql',
        '0014_post_excerpt.sql',
        '0015_tags.sql',
        '0016_comments.sql',
        '0017_post_old_paths.sql',
        '0018_site_settings.sql',
        '0019_server_builds.sql',
        '0020_sign_in_limits.sql',
        '0021_job_runs.sql',
        ...(kind === 'postgresql' ? ['0022_data_version_at_commit.sql', '0023_category_moves_by_row.sql'] : []),
        '0024_category_colors.sql',
        '0025_photo_location_source.sql',
        '0026_trips.sql',
      ])
      const converted = await db.post.findFirstOrThrow({ where: { title: 'text' } })
      assert.equal(converted.content, '<p>Tom &amp; Jerry &lt;3 &lt;script&gt;x&lt;/script&gt;<br />\nline two</p>\n<p>Second &quot;paragraph&quot;</p>')
      assert.equal(converted.searchText, null, 'folded again from the HTML when a server starts')
      const last = await db.post.findFirstOrThrow({ where: { title: `p${REWRITE_BATCH}` } })
      assert.equal(last.content, `<p>Post ${REWRITE_BATCH} &amp; more</p>`, 'the second batch is converted too')
      assert.equal(await db.post.count({ where: { content: { startsWith: '<p>' } } }), REWRITE_BATCH + 2)
      assert.deepEqual(await db.post.findFirstOrThrow({ where: { title: 'empty' }, select: { content: true, searchText: true } }), {
        content: '',
        searchText: 'empty',
      })
    } finally {
      await db.$disconnect()
      await database.drop()
    }
  })

  test(`${kind}: processes migrating a new database at once apply each migration once, between them`, async () => {
    const fresh = await createTestDatabase(kind)
    const script = path.join(mkdtempSync(path.join(tmpdir(), 'places-migrate-')), 'migrate-at.ts')
    try {
      // Real processes, as app instances or a command line beside a server start, each calling migrate() at the same
      // moment (their start-up takes a second or two, so they are given a time to start at).
      const at = Date.now() + 6000
      writeFileSync(
        script,
        `import { migrate } from ${JSON.stringify(path.resolve('lib/migrate'))}
void (async () => {
  await new Promise((resolve) => setTimeout(resolve, ${at} - Date.now()))
  console.log(JSON.stringify(await migrate(${JSON.stringify(fresh.url)})))
})()
`,
      )
      const runs = await Promise.all(
        [0, 1, 2].map(() => promisify(execFile)(process.execPath, ['--conditions=react-server', '--import', 'tsx', script], { encoding: 'utf8' })),
      )
      const applied = runs.flatMap(({ stdout }) => JSON.parse(stdout) as string[])
      assert.deepEqual(
        applied.sort(),
        readdirSync(`prisma/migrations/${kind}`)
          .filter((name) => name.endsWith('.sql'))
          .sort(),
      )
      assert.deepEqual(await migrate(fresh.url), [])
    } finally {
      await fresh.drop()
      rmSync(path.dirname(script), { recursive: true, force: true })
    }
  })
}
