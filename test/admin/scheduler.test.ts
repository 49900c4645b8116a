import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import pg from 'pg'
import { publishDuePosts, rescheduleNow, startScheduler } from '../../lib/admin/scheduler'
import { addUser } from '../../lib/admin/users'
import { disconnectDb, getDb } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'
import { waitFor } from '../support/wait'

// The scheduler of lib/admin/scheduler.ts on a real database: what fell due while no server ran is published when
// one starts, a post a second ahead goes live by itself, and nothing is written (nor the data version bumped) when
// nothing is due.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let authorId: number

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  authorId = await addUser({ id: 0, role: 'administrator' }, { email: 'scheduler@admin.test', password: 'long enough', role: 'administrator' })
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

const dataVersion = async () => Number((await getDb().siteState.findUniqueOrThrow({ where: { id: 1 } })).dataVersion)
const statusOf = async (id: number) => (await getDb().post.findUniqueOrThrow({ where: { id } })).status
const scheduled = async (slug: string, publishedAt: Date) =>
  (await getDb().post.create({ data: { title: slug, slug, status: 'future', publishedAt, authorId }, select: { id: true } })).id

test('nothing due: nothing written, the data version kept', async () => {
  await scheduled('far-ahead', new Date(Date.now() + 3_600_000))
  const before = await dataVersion()
  assert.equal(await publishDuePosts(), 0)
  assert.equal(await dataVersion(), before)
})

test('rounds at once, as instances on one database run them: the post goes live once, in one write', async () => {
  const id = await scheduled('together', new Date(Date.now() - 1_000))
  const before = await dataVersion()
  // On PostgreSQL the rounds are made to meet: another session holds the post's row, so that each round that reaches
  // it waits there, until every round is either waiting or done; then the row is let go.
  const holder = kind === 'postgresql' ? new pg.Client({ connectionString: database.url }) : undefined
  await holder?.connect()
  await holder?.query('BEGIN')
  await holder?.query('SELECT 1 FROM "posts" WHERE "id" = $1 FOR UPDATE', [id])
  let done = 0
  const rounds = Promise.all(Array.from({ length: 3 }, () => publishDuePosts().finally(() => done++)))
  if (holder) {
    // Asked of the server on a connection of its own: within the holder's transaction the view would stay as first read.
    const watcher = new pg.Client({ connectionString: database.url })
    await watcher.connect()
    await waitFor('every round to wait for the row or to be done', async () => {
      const { rows } = await watcher.query<{ waiting: string }>(
        `SELECT count(*) AS "waiting" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`,
      )
      return Number(rows[0]!.waiting) + done >= 3 ? true : undefined
    })
    await watcher.end()
    await holder.query('COMMIT')
    await holder.end()
  }
  const published = await rounds
  assert.deepEqual(published.toSorted(), [0, 0, 1])
  assert.equal(await statusOf(id), 'publish')
  // Not one bump per round: the rounds that found it taken, or done, wrote nothing.
  assert.equal(await dataVersion(), before + 1)
})

test('due while no server ran: published at start; then a post a second ahead goes live by itself, once', async () => {
  const missed = await scheduled('missed', new Date(Date.now() - 60_000))
  const before = await dataVersion()
  startScheduler()
  await waitFor('the missed post to be published', async () => ((await statusOf(missed)) === 'publish' ? true : undefined))
  assert.ok((await dataVersion()) > before, 'going live bumps the data version')

  const soon = await scheduled('soon', new Date(Date.now() + 1_000))
  rescheduleNow() // as lib/admin/posts.ts does when it schedules a post
  assert.equal(await statusOf(soon), 'future')
  await waitFor('the post a second ahead to go live', async () => ((await statusOf(soon)) === 'publish' ? true : undefined))
  assert.equal(await publishDuePosts(), 0, 'a second run finds nothing more to do')
  assert.equal(await statusOf(await scheduled('later', new Date(Date.now() + 3_600_000))), 'future')
})
