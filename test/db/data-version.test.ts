import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import pg from 'pg'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'

// The data version on PostgreSQL (migration 0022): bumped once for each transaction that changed what the public
// routes show, at its commit, with the posts it touched logged under that version; so writers of different posts
// never wait for each other's transactions, and commits take versions in their order. Each client here is a
// connection of its own, as two instances' are.

describe('the data version on PostgreSQL', { skip: !databaseKinds.includes('postgresql') && 'TEST_DATABASE_URL is not set' }, () => {
  let database: TestDatabase
  const clients: pg.Client[] = []
  let author = 0

  const connect = async () => {
    const client = new pg.Client({ connectionString: database.url })
    await client.connect()
    clients.push(client)
    return client
  }
  const version = async (client: pg.Client) => Number((await client.query<{ v: string }>('SELECT "data_version" AS v FROM "site_state"')).rows[0]!.v)
  const logged = async (client: pg.Client, made: number) =>
    (await client.query<{ post_id: number }>('SELECT "post_id" FROM "place_changes" WHERE "version" = $1 ORDER BY "post_id"', [made])).rows.map(
      (r) => r.post_id,
    )
  const addPost = async (client: pg.Client, slug: string) =>
    (
      await client.query<{ id: number }>(
        `INSERT INTO "posts" ("title", "slug", "published_at", "modified_at", "author_id") VALUES ($1, $1, now(), now(), $2) RETURNING "id"`,
        [slug, author],
      )
    ).rows[0]!.id

  before(async () => {
    database = await createTestDatabase('postgresql')
    await migrate(database.url)
    const client = await connect()
    author = (
      await client.query<{ id: number }>(`INSERT INTO "users" ("email", "role", "session_version") VALUES ('v@example.org', 'author', 'x') RETURNING "id"`)
    ).rows[0]!.id
  })

  after(async () => {
    await Promise.all(clients.map((client) => client.end()))
    await database?.drop()
  })

  test('a transaction of several writes makes one version, with every post it touched; no change, no version', async () => {
    const client = await connect()
    const [first, second] = [await addPost(client, 'first'), await addPost(client, 'second')]
    const start = await version(client)
    await client.query('BEGIN')
    await client.query(`UPDATE "posts" SET "title" = 'First again' WHERE "id" = $1`, [first])
    await client.query(`UPDATE "posts" SET "title" = 'Second again' WHERE "id" = $1`, [second])
    await client.query(`INSERT INTO "categories" ("name", "slug") VALUES ('A', 'a')`)
    assert.equal(await version(client), start, 'not before the commit')
    await client.query('COMMIT')
    assert.equal(await version(client), start + 1)
    assert.deepEqual(await logged(client, start + 1), [first, second])

    await client.query(`UPDATE "posts" SET "title" = 'Nobody' WHERE "id" = -1`)
    await client.query(`UPDATE "site_settings" SET "title" = 'Nothing' WHERE "id" = -1`)
    await client.query(`DELETE FROM "post_tags" WHERE "post_id" = -1`)
    assert.equal(await version(client), start + 1, 'statements that changed no row')
    await client.query('BEGIN')
    await client.query(`UPDATE "posts" SET "title" = 'Rolled back' WHERE "id" = $1`, [first])
    await client.query('ROLLBACK')
    assert.equal(await version(client), start + 1, 'a rolled back transaction')
    assert.deepEqual((await client.query('SELECT * FROM "pending_commits" UNION ALL SELECT "txid" FROM "pending_changes"')).rows, [], 'nothing left pending')
  })

  test('a second writer on another post does not wait for the first, which holds its transaction open', async () => {
    const [a, b] = [await connect(), await connect()]
    const [one, two] = [await addPost(a, 'held'), await addPost(a, 'free')]
    const start = await version(a)
    await a.query('BEGIN')
    await a.query(`UPDATE "posts" SET "title" = 'Held' WHERE "id" = $1`, [one])
    // Were the first writer holding site_state, this would wait until it ended: a lock_timeout turns waiting into an error.
    await b.query(`SET lock_timeout = '100ms'`)
    const started = performance.now()
    await b.query(`UPDATE "posts" SET "title" = 'Free' WHERE "id" = $1`, [two])
    const waited = performance.now() - started
    assert.ok(waited < 100, `${waited} ms`)
    assert.equal(await version(b), start + 1, "the second writer's commit made the next version")
    await a.query('COMMIT')
    assert.equal(await version(a), start + 2, 'the first made the one after, at its commit')
    assert.deepEqual([await logged(a, start + 1), await logged(a, start + 2)], [[two], [one]])
  })

  test('commits at once each make a version of their own, in the order they commit', async () => {
    const writers = await Promise.all(Array.from({ length: 8 }, () => connect()))
    const ids = await Promise.all(writers.map((client, i) => addPost(client, `at-once-${i}`)))
    const start = await version(writers[0]!)
    await Promise.all(
      writers.map(async (client, i) => {
        await client.query('BEGIN')
        await client.query(`UPDATE "posts" SET "title" = 'Written' WHERE "id" = $1`, [ids[i]])
        await client.query('COMMIT')
      }),
    )
    assert.equal(await version(writers[0]!), start + 8)
    // One query: a client runs one at a time (pg 9 refuses a second sent before the first ends).
    const { rows } = await writers[0]!.query<{ v: string }>('SELECT MAX("version") AS v FROM "place_changes" WHERE "post_id" = ANY($1) GROUP BY "post_id"', [
      ids,
    ])
    assert.deepEqual(new Set(rows.map((row) => Number(row.v))), new Set(Array.from({ length: 8 }, (_, i) => start + 1 + i)), 'one version each')
  })
})
