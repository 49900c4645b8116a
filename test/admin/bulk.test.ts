import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { bulkEditPosts, type BulkReport } from '../../lib/admin/bulk'
import { disconnectDb, getDb } from '../../lib/db'
import { ApiError } from '../../lib/http/errors'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// The posts list's bulk actions against a real database (lib/admin/bulk.ts): each post authorised alone by the
// editor's rules, a post the user may not edit skipped by its id with nothing written, a contributor's Publish
// refused outright, and what was done and not said post by post. SQLite, then PostgreSQL in a child process.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
type Who = { id: number; role: string }
let editor: Who
let author: Who
let contributor: Who
let other: Who
let europe: number

const HOUR = 3_600_000

async function post(title: string, by: Who, { status = 'draft', publishedAt = new Date(Date.now() - HOUR) } = {}): Promise<number> {
  const slug = title.toLowerCase().replace(/\W+/g, '-')
  return (await getDb().post.create({ data: { title, slug, status, publishedAt, authorId: by.id }, select: { id: true } })).id
}

const row = (id: number) =>
  getDb().post.findUniqueOrThrow({ where: { id }, select: { status: true, modifiedAt: true, categories: true, tags: { select: { tag: true } } } })

/** Each post's outcome and note, by id. */
const outcomes = (report: BulkReport) => Object.fromEntries(report.posts.map((p) => [p.id, `${p.outcome}: ${p.note}${p.title === null ? ' (no title)' : ''}`]))

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  const db = getDb()
  const user = async (email: string, role: string) => db.user.create({ data: { email, role }, select: { id: true, role: true } })
  editor = await user('editor@bulk.test', 'editor')
  author = await user('author@bulk.test', 'author')
  contributor = await user('contributor@bulk.test', 'contributor')
  other = await user('other@bulk.test', 'author')
  europe = (await db.category.create({ data: { name: 'Europe', slug: 'europe' }, select: { id: true } })).id
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

test("an author publishes their own drafts; another's post is skipped by its id and not written; a date to come schedules", async () => {
  const own = await post('Own draft', author)
  const later = await post('Own for later', author, { publishedAt: new Date(Date.now() + 24 * HOUR) })
  const others = await post('Not mine', other)
  const before = await row(others)
  const report = await bulkEditPosts(author, [own, later, others, 999_999], 'publish')
  assert.deepEqual(outcomes(report), {
    [own]: 'done: published',
    [later]: 'done: scheduled',
    [others]: 'skipped: you may not edit it (no title)',
    999999: 'skipped: you may not edit it (no title)',
  })
  assert.deepEqual([report.done, report.unchanged, report.skipped], [2, 0, 2])
  assert.equal((await row(own)).status, 'publish')
  assert.equal((await row(later)).status, 'future')
  assert.deepEqual(await row(others), before, 'nothing written for a post the user may not edit')
})

test("a contributor's Publish is refused outright, and nothing is written", async () => {
  const own = await post('Contributed', contributor)
  await assert.rejects(bulkEditPosts(contributor, [own], 'publish'), (error: unknown) => error instanceof ApiError && error.code === 'rest_forbidden')
  assert.equal((await row(own)).status, 'draft')
  // Set to draft and Add tag are theirs on their own drafts.
  assert.deepEqual(outcomes(await bulkEditPosts(contributor, [own], 'draft')), { [own]: 'unchanged: a draft already' })
})

test('Move to Trash and Restore; a post in the Trash is not published, categorised or tagged until restored', async () => {
  const [a, b] = [await post('Trash A', editor, { status: 'publish' }), await post('Trash B', other, { status: 'draft' })]
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [a, b], 'trash')), { [a]: 'done: moved to the Trash', [b]: 'done: moved to the Trash' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [a], 'trash')), { [a]: 'unchanged: in the Trash already' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [a], 'publish')), { [a]: 'skipped: in the Trash: restore it first' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [a], 'category', { categoryId: europe })), { [a]: 'skipped: in the Trash: restore it first' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [a, b], 'restore')), { [a]: 'done: restored from the Trash', [b]: 'done: restored from the Trash' })
  assert.deepEqual([(await row(a)).status, (await row(b)).status], ['publish', 'draft'], 'each with the status it had')
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [a], 'restore')), { [a]: 'unchanged: not in the Trash' })
})

test('Set to draft, Add to category and Add tag: done once, unchanged after; a bad category or tag is refused naming it', async () => {
  const id = await post('Lisbon tram', editor, { status: 'publish' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [id], 'draft')), { [id]: 'done: now a draft' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [id, id], 'category', { categoryId: europe })), { [id]: 'done: added to the category' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [id], 'category', { categoryId: europe })), { [id]: 'unchanged: in the category already' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [id], 'tag', { tagName: '  Trams ' })), { [id]: 'done: tagged' })
  assert.deepEqual(outcomes(await bulkEditPosts(editor, [id], 'tag', { tagName: 'TRAMS' })), { [id]: 'unchanged: tagged so already' })
  const after = await row(id)
  assert.deepEqual(
    after.categories.map((link) => link.categoryId),
    [europe],
  )
  assert.deepEqual(
    after.tags.map((link) => link.tag.name),
    ['Trams'],
  )

  const invalid = (params: string[]) => (error: unknown) =>
    error instanceof ApiError && error.code === 'rest_invalid_param' && Object.keys(error.data.params as object).join() === params.join()
  await assert.rejects(bulkEditPosts(editor, [id], 'category', { categoryId: 999_999 }), invalid(['categoryId']))
  await assert.rejects(bulkEditPosts(editor, [id], 'tag', { tagName: 'a, b' }), invalid(['tagName']))
  assert.equal(await getDb().tag.count({ where: { name: 'a, b' } }), 0)
})
