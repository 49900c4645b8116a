import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { addUser } from '../../lib/admin/users'
import { disconnectDb, getDb } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { findOldSlugTarget } from '../../lib/places/old-slugs'
import { importWxr } from '../../lib/wxr/import'
import { createTestDatabase, type TestDatabase } from '../support/databases'

// A WordPress export carries a post's earlier slugs as _wp_old_slug meta, repeated once per slug: the import keeps
// every one, and the old URLs lead to the post while it is published.

let database: TestDatabase
const dir = mkdtempSync(path.join(tmpdir(), 'places-wxr-old-slugs-'))

before(async () => {
  database = await createTestDatabase('sqlite')
  process.env.DATABASE_URL = database.url
  await migrate()
  await addUser({ id: 0, role: 'administrator' }, { email: 'wxr@admin.test', password: 'long enough', role: 'administrator' })
})

after(async () => {
  await disconnectDb()
  await database.drop()
  rmSync(dir, { recursive: true, force: true })
})

const oldSlug = (slug: string) =>
  `<wp:postmeta><wp:meta_key><![CDATA[_wp_old_slug]]></wp:meta_key><wp:meta_value><![CDATA[${slug}]]></wp:meta_value></wp:postmeta>`
const item = (id: number, name: string, status: string, meta: string) => `
  <item><title><![CDATA[${name}]]></title><guid isPermaLink="false">https://old.example/?p=${id}</guid>
    <wp:post_id>${id}</wp:post_id><wp:post_date><![CDATA[2020-05-01 12:00:00]]></wp:post_date><wp:post_name><![CDATA[${name}]]></wp:post_name>
    <wp:status><![CDATA[${status}]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>${meta}</item>`

test('every _wp_old_slug of a post is kept; an old URL leads to a published post only', async () => {
  const file = path.join(dir, 'site.xml')
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
${item(700, 'lisbon-today', 'publish', oldSlug('lisbon') + oldSlug('Lisbon Old Town'))}
${item(701, 'porto', 'draft', oldSlug('porto-draft'))}
</channel></rss>`,
  )
  const summary = await importWxr(file, {})
  assert.equal(summary.posts, 2)
  const rows = await getDb().postOldSlug.findMany({ orderBy: { slug: 'asc' }, select: { type: true, slug: true, postId: true } })
  assert.deepEqual(rows, [
    { type: 'post', slug: 'lisbon', postId: 700 },
    { type: 'post', slug: 'lisbon-old-town', postId: 700 },
    { type: 'post', slug: 'porto-draft', postId: 701 },
  ])
  assert.equal(await findOldSlugTarget('post', 'lisbon'), '/post/lisbon-today')
  assert.equal(await findOldSlugTarget('post', 'lisbon-old-town'), '/post/lisbon-today')
  assert.equal(await findOldSlugTarget('post', 'porto-draft'), null, 'a draft is not revealed')
  assert.equal(await findOldSlugTarget('post', 'nowhere'), null)
})

test('only a published post holds an address: a draft with an old slug leaves its redirect, publishing it takes the address', async () => {
  const db = getDb()
  const authorId = (await db.user.findFirstOrThrow({ select: { id: true } })).id
  const draft = await db.post.create({ data: { title: 'Lisbon again', slug: 'lisbon', status: 'draft', publishedAt: new Date(), authorId } })
  assert.equal(await findOldSlugTarget('post', 'lisbon'), '/post/lisbon-today', 'a visitor is not told that a draft exists')
  await db.post.update({ where: { id: draft.id }, data: { status: 'publish' } })
  assert.equal(await findOldSlugTarget('post', 'lisbon'), null, 'the published post’s URL is its own')
})
