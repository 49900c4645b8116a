import path from 'node:path'
import Database from 'better-sqlite3'
import type { APIRequestContext } from '@playwright/test'
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

test('a demoted or deleted user loses their rights at once, whatever session or password they hold', async ({
  playwright,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  test.setTimeout(120_000)
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const run = runId()
  const email = `session-editor-${run}@e2e.test`
  const password = `session-password-${run}`
  const owner = `session-owner-${run}@e2e.test`
  await createUser(server, email, password, 'editor')
  await createUser(server, owner, `owner-password-${run}`, 'author')
  const [postId] = await importPosts(
    server,
    [{ type: 'Feature', geometry: null, properties: { title: `Session target ${run}`, type: 'sessiontest', status: 'draft' } }],
    owner,
  )
  await places(server, 'media', 'import', '--post', String(postId), path.join(__dirname, '..', '..', 'test', 'fixtures', 'exif', 'gox_gps.jpg'))
  const appPassword = (await places(server, 'app-password', 'create', '--user', email)).trim().split('\n').at(-1)!

  const session = await signInOrThrow(playwright.request, baseURL!, email, password)
  const route = `/places/v1/attachment-exif-gps/${postId}`
  const withPassword = { headers: { Authorization: basic(email, appPassword) } }
  expect((await session.get(route)).status(), "an editor edits another's draft").toBe(200)
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

/** Whether this context's session cookie still names a user, as next-auth tells it. */
async function hasSession(context: APIRequestContext): Promise<boolean> {
  return ((await (await context.get('/api/auth/session')).json()) as { user?: unknown }).user !== undefined
}

test('sessions end at once on a new password, on "sign out everywhere", and with a user made anew; application passwords stay', async ({
  playwright,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  test.setTimeout(120_000)
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const run = runId()
  const email = `revoke-${run}@e2e.test`
  let password = `revoke-password-${run}`
  await createUser(server, email, password, 'editor')
  const [postId] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title: `Revoke target ${run}`, status: 'draft' } }], email)
  const appPassword = (await places(server, 'app-password', 'create', '--user', email)).trim().split('\n').at(-1)!
  const route = `/places/v1/attachment-exif-gps/${postId}`
  const program = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: basic(email, appPassword) } })
  // 404 rest_no_exif_gps: allowed to ask (the post has no photo); a 401 or 403 would mean the credentials failed.
  const programMayAsk = async () => expect((await program.get(route)).status(), 'the application password still works').toBe(404)

  const first = await signInOrThrow(playwright.request, baseURL!, email, password)
  const second = await signInOrThrow(playwright.request, baseURL!, email, password)
  expect((await first.get(route)).status()).toBe(404)
  password = `revoke-new-password-${run}`
  await places(server, 'user', 'set-password', '--email', email, '--password', password)
  for (const session of [first, second]) {
    expect(await hasSession(session), 'a new password ends every session').toBe(false)
    expect((await session.get(route)).status()).toBe(401)
  }
  await programMayAsk()

  const third = await signInOrThrow(playwright.request, baseURL!, email, password)
  expect(await places(server, 'user', 'sign-out-everywhere', email)).toContain(email)
  expect(await hasSession(third), 'sign-out-everywhere ends it').toBe(false)
  expect((await third.get(route)).status()).toBe(401)
  await programMayAsk()

  // A database made anew with the same AUTH_SECRET: the same id and email now name a new user, whose sessions the
  // old cookie must not open.
  const fourth = await signInOrThrow(playwright.request, baseURL!, email, password)
  await execute(databaseUrl, 'UPDATE "users" SET "session_version" = \'a-new-user\' WHERE "email" = ?', email)
  expect(await hasSession(fourth), 'a user made anew is not the one the cookie named').toBe(false)
  for (const context of [first, second, third, fourth, program]) await context.dispose()
})
