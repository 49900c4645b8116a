import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { signInOrThrow, basic } from '../support/auth'
import { createUser, importPosts, places, runId } from '../support/places-cli'
import { expect, test } from '../support/test'

// A session is a signed cookie that lives a week; rights must not. The role is read on every request, so a user
// demoted or deleted (here straight in the database, as any admin tool would) loses rights at once, session and
// application passwords alike.

async function execute(databaseUrl: string, sql: string, value: string | number): Promise<void> {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      await client.query(sql.replace('?', '$1'), [value])
    } finally {
      await client.end()
    }
    return
  }
  const db = new Database(path.resolve(databaseUrl.replace(/^file:/, '')))
  try {
    db.prepare(sql).run(value)
  } finally {
    db.close()
  }
}

test('a demoted or deleted user loses their rights at once, whatever session or password they hold', async ({ playwright, baseURL, databaseUrl, uploadsDir }) => {
  test.setTimeout(120_000)
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const run = runId()
  const email = `session-editor-${run}@e2e.test`
  const password = `session-password-${run}`
  const owner = `session-owner-${run}@e2e.test`
  await createUser(server, email, password, 'editor')
  await createUser(server, owner, `owner-password-${run}`, 'author')
  const [postId] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title: `Session target ${run}`, type: 'sessiontest', status: 'draft' } }], owner)
  await places(server, 'media', 'import', '--post', String(postId), path.join(__dirname, '..', '..', 'test', 'fixtures', 'exif', 'gox_gps.jpg'))
  const appPassword = (await places(server, 'app-password', 'create', '--user', email)).trim().split('\n').at(-1)!

  const session = await signInOrThrow(playwright.request, baseURL!, email, password)
  const route = `/places/v1/attachment-exif-gps/${postId}`
  const withPassword = { headers: { Authorization: basic(email, appPassword) } }
  expect((await session.get(route)).status(), 'an editor edits another\'s draft').toBe(200)
  expect((await session.get(route, withPassword)).status()).toBe(200)

  await execute(databaseUrl, 'UPDATE "users" SET "role" = \'subscriber\' WHERE "email" = ?', email)
  expect((await session.get(route)).status(), 'demoted: the same session is refused at once').toBe(403)
  expect((await session.get(route, withPassword)).status(), 'demoted: the same application password too').toBe(403)

  await execute(databaseUrl, 'DELETE FROM "users" WHERE "email" = ?', email)
  const after = await session.get(route)
  expect(after.status(), 'deleted: the session names nobody').toBe(401)
  expect((await after.json()).code).toBe('rest_forbidden')
  expect((await session.get(route, withPassword)).status(), 'deleted: the application password went with the user').toBe(401)
  await session.dispose()
})
