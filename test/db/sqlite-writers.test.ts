import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import Database from 'better-sqlite3'
import { createDraft } from '../../lib/admin/posts'
import { disconnectDb, getDb, sqliteFile, transaction } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { createUser } from '../../lib/users'
import { createTestDatabase, type TestDatabase } from '../support/databases'
import { waitFor } from '../support/wait'

// The server on SQLite beside another writer (a command-line import, say, in its own process): its transactions wait
// for the lock and are retried whole, and its other queries never run inside a transaction nor see a stale snapshot.
// lib/db/sqlite.ts tells the server by NEXT_RUNTIME, as Next.js sets it: this file sets it before its first query.

process.env.NEXT_RUNTIME = 'nodejs'
let database: TestDatabase
let other: Database.Database
let authorId: number

/**
 * How many statements SQLite has refused with SQLITE_BUSY in this process so far: the server's connections (Prisma's
 * adapter) and this test's use the same better-sqlite3, whose statements this counts as they run, unchanged.
 */
let refusedBusy = 0
function countBusyRefusals(db: Database.Database): void {
  const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<'run' | 'all' | 'get', (...args: unknown[]) => unknown>
  for (const method of ['run', 'all', 'get'] as const) {
    const original = statement[method]
    statement[method] = function (this: unknown, ...args: unknown[]) {
      try {
        return Reflect.apply(original, this, args)
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) refusedBusy++
        throw error
      }
    }
  }
}
const insertPost = (title: string) =>
  other
    .prepare(`INSERT INTO posts (title, slug, type, status, published_at, modified_at, author_id) VALUES (?, ?, 'post', 'publish', 0, 0, ?)`)
    .run(title, title.toLowerCase().replace(/\W+/g, '-'), authorId)

before(async () => {
  database = await createTestDatabase('sqlite')
  process.env.DATABASE_URL = database.url
  await migrate()
  authorId = await createUser({ email: 'author@writers.test', password: 'long enough', role: 'author' })
  other = new Database(sqliteFile(database.url), { timeout: 0 })
  countBusyRefusals(other)
})

after(async () => {
  other.close()
  await disconnectDb()
  await database.drop()
})

test('a transaction whose snapshot another writer made stale is run again, whole, and commits', async () => {
  let runs = 0
  const title = await transaction(async (tx) => {
    runs++
    const count = await tx.post.count()
    // Another connection commits between this transaction's read and its write: SQLite refuses the write for good.
    if (runs === 1) insertPost('Committed meanwhile')
    const post = await tx.post.create({
      data: { title: `After ${count} posts`, slug: `after-${runs}`, status: 'draft', publishedAt: new Date(), authorId },
      select: { title: true },
    })
    return post.title
  })
  assert.equal(runs, 2)
  assert.equal(title, 'After 1 posts')
  assert.deepEqual(
    (await getDb().post.findMany({ orderBy: { id: 'asc' }, select: { title: true } })).map((p) => p.title),
    ['Committed meanwhile', 'After 1 posts'],
  )
})

test('while another process holds the write lock, drafts wait for it and reads go on with what is committed', async () => {
  other.exec('BEGIN IMMEDIATE')
  insertPost('Uncommitted')
  const refusedBefore = refusedBusy
  let settled = false
  const draft = createDraft({ id: authorId, role: 'author' }, { title: 'Waited for the lock', type: 'post' }).finally(() => (settled = true))
  // Refused the lock, and tried again after waiting: it waits for the lock rather than failing.
  await waitFor('the draft to be refused the lock twice', () => (refusedBusy >= refusedBefore + 2 ? true : undefined))
  assert.equal(settled, false, 'the draft is still waiting')
  // The draft is still waiting, and a read meanwhile sees neither it nor the other process's open work.
  assert.equal(await getDb().post.count({ where: { title: { in: ['Uncommitted', 'Waited for the lock'] } } }), 0)
  other.exec('COMMIT')
  const id = await draft
  const titles = (await getDb().post.findMany({ where: { id: { gte: id - 1 } }, orderBy: { id: 'asc' }, select: { title: true } })).map((p) => p.title)
  assert.deepEqual(titles, ['Uncommitted', 'Waited for the lock'])
})

test('a read during an open transaction of the server sees only what is committed', async () => {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let inside!: () => void
  const started = new Promise<void>((resolve) => (inside = resolve))
  const writing = transaction(async (tx) => {
    await tx.post.create({ data: { title: 'Not yet committed', slug: 'not-yet', status: 'publish', publishedAt: new Date(), authorId } })
    inside()
    await held
  })
  await started
  assert.equal(await getDb().post.count({ where: { title: 'Not yet committed' } }), 0)
  release()
  await writing
  assert.equal(await getDb().post.count({ where: { title: 'Not yet committed' } }), 1)
})
