import assert from 'node:assert/strict'
import { createReadStream, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { restorePost, trashPost } from '../../lib/admin/posts'
import { emptyOldTrash } from '../../lib/admin/trash'
import { addUser } from '../../lib/admin/users'
import { OPERATOR } from '../../lib/auth/callers'
import { disconnectDb, getDb } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { getConfig } from '../../lib/config'
import { storeAttachment } from '../../lib/media/storage'
import { importWxr } from '../../lib/wxr/import'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// The Trash empties itself as WordPress's does (EMPTY_TRASH_DAYS, 30 by default): a post there longer than that is
// deleted for good with its photos' files; one there for less, or restored, stays. `now` is passed in: no clock.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
const kind = databaseOfThisRun(import.meta.url)
const DAY = 86_400_000
let database: TestDatabase
let admin: { id: number; role: 'administrator' }
const uploads = mkdtempSync(path.join(tmpdir(), 'places-trash-'))

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  process.env.UPLOADS_DIR = uploads
  delete process.env.EMPTY_TRASH_DAYS
  await migrate()
  admin = {
    id: await addUser({ id: 0, role: 'administrator' }, { email: 'trash@admin.test', password: 'long enough', role: 'administrator' }),
    role: 'administrator',
  }
})

after(async () => {
  await disconnectDb()
  await database.drop()
  rmSync(uploads, { recursive: true, force: true })
})

const post = async (slug: string) =>
  (await getDb().post.create({ data: { title: slug, slug, status: 'publish', publishedAt: new Date(), authorId: admin.id }, select: { id: true } })).id
const exists = async (id: number) => (await getDb().post.count({ where: { id } })) === 1

test('posts in the Trash more than 30 days are deleted with their files; a restored one stays', async () => {
  const [trashed, withPhoto, restored, kept] = [await post('trashed'), await post('with-photo'), await post('restored'), await post('kept')]
  const photo = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/exif/exr_noexif.jpg')
  const { url } = await storeAttachment({ postId: withPhoto, filename: 'photo.jpg', body: createReadStream(photo) })
  const files = ['originals', 'public'].map((tree) =>
    path.join(getConfig().uploadsDir, tree, decodeURIComponent(new URL(url).pathname.slice('/uploads/'.length))),
  )
  assert.ok(files.every((file) => existsSync(file)))
  for (const id of [trashed, withPhoto, restored]) assert.equal(await trashPost(OPERATOR, id), true)
  const { trashedAt } = await getDb().post.findUniqueOrThrow({ where: { id: trashed }, select: { trashedAt: true } })
  assert.ok(trashedAt, 'moving to the Trash starts its clock')
  await restorePost(admin, restored)
  assert.equal((await getDb().post.findUniqueOrThrow({ where: { id: restored }, select: { trashedAt: true } })).trashedAt, null)

  assert.equal(await emptyOldTrash(new Date(Date.now() + 29 * DAY)), 0, 'not yet 30 days')
  assert.ok(await exists(trashed))
  assert.equal(await emptyOldTrash(new Date(Date.now() + 31 * DAY)), 2)
  assert.equal(await exists(trashed), false)
  assert.equal(await exists(withPhoto), false)
  assert.deepEqual(
    files.filter((file) => existsSync(file)),
    [],
    "the photo's files went with its post",
  )
  assert.ok(await exists(restored), 'restored: out of the Trash, out of its clock')
  assert.ok(await exists(kept))
  assert.equal(await emptyOldTrash(new Date(Date.now() + 31 * DAY)), 0, 'nothing left to do: nothing done')
})

test("a WordPress export's trashed posts keep the time they were trashed; without it, the import starts the clock", async () => {
  const meta = (key: string, value: string) => `<wp:postmeta><wp:meta_key>${key}</wp:meta_key><wp:meta_value>${value}</wp:meta_value></wp:postmeta>`
  const item = (name: string, extra: string) => `
    <item><title>${name}</title><guid isPermaLink="false">https://old.example/?p=${name}</guid><wp:post_name>${name}</wp:post_name>
      <wp:post_date>2020-05-01 12:00:00</wp:post_date><wp:status>trash</wp:status><wp:post_type>post</wp:post_type>
      ${meta('_wp_trash_meta_status', 'publish')}${extra}</item>`
  const file = path.join(uploads, 'site.xml')
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8" ?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
      ${item('long-trashed', meta('_wp_trash_meta_time', String(Math.floor((Date.now() - 40 * DAY) / 1000))))}${item('lately-trashed', '')}</channel></rss>`,
  )
  assert.equal((await importWxr(file, {})).posts, 2)
  const slugs = async () => (await getDb().post.findMany({ where: { status: 'trash' }, select: { slug: true }, orderBy: { slug: 'asc' } })).map((p) => p.slug)
  assert.deepEqual(await slugs(), ['lately-trashed', 'long-trashed'])
  assert.equal(await emptyOldTrash(), 1)
  assert.deepEqual(await slugs(), ['lately-trashed'])
})
