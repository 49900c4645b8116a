import path from 'node:path'
import type { APIResponse } from '@playwright/test'
import { basic, signInOrThrow } from '../support/auth'
import { expectWordPressError } from '../support/http'
import { corpusFile, filesContaining, holdUpload, PHOTOS, upload, type RawAnswer } from '../support/media'
import { createAppPassword, createUser, importPosts, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'

// A user runs at most 4 uploads at once (lib/media/upload-slots.ts): one more is refused at once, 429 with
// Retry-After, while other users upload as before; an upload's place is given back however it ends. The four are
// held open by sending only part of their bodies, and counted as running once the server stores them (their files
// are in incoming/): nothing here depends on timing.

test.describe.configure({ timeout: 120_000 })

type Person = { email: string; password: string; authorization: string; postId: number }

let server: ServerEnv
let owner: Person
let other: Person
const photo = corpusFile(PHOTOS.noExif)

test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(120_000)
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
  const run = runId()
  const person = async (who: string): Promise<Person> => {
    const email = `upload-limit-${who}-${run}@e2e.test`
    const password = `upload-limit-${who}-password-${run}`
    await createUser(server, email, password, 'author')
    const authorization = basic(email, await createAppPassword(server, email, `uploads-${run}`))
    const feature = { type: 'Feature' as const, geometry: null, properties: { title: `upload limit ${who} ${run}`, status: 'draft' } }
    const [postId] = await importPosts(server, [feature], email)
    return { email, password, authorization, postId: postId! }
  }
  owner = await person('owner')
  other = await person('other')
})

const markers = (what: string) => Array.from({ length: 4 }, (_, i) => `places-e2e-held-${what}-${i}-${runId()}${runId()}`)
const holdAll = (marks: string[]) => Promise.all(marks.map((mark) => holdUpload(server, owner.postId, mark, owner.authorization)))

/** A 429 `too_many_uploads` whose Retry-After, in whole seconds, is the one its body gives. */
async function expectTooMany(response: APIResponse, what: string): Promise<void> {
  const error = await expectWordPressError(response, 429, 'too_many_uploads', { cors: false })
  const retryAfter = response.headers()['retry-after']
  expect(retryAfter, `${what}: Retry-After`).toMatch(/^[1-9]\d*$/)
  expect(error.data.retryAfter, what).toBe(Number(retryAfter))
}

function expectStored(answers: RawAnswer[]): void {
  for (const answer of answers) expect(answer.status, answer.body.slice(0, 300)).toBe(201)
}

test('4 uploads of one user at once run; a 5th is 429 with Retry-After, by application password or session; another user uploads meanwhile; then the user uploads again', async ({
  request,
  playwright,
}) => {
  const session = await signInOrThrow(playwright.request, server.baseURL, owner.email, owner.password)
  try {
    const held = await holdAll(markers('finished'))
    await expectTooMany(await upload(request, owner.postId, photo, 'fifth.jpg', { authorization: owner.authorization }), 'the 5th, by application password')
    await expectTooMany(await upload(session, owner.postId, photo, 'fifth.jpg', { origin: server.baseURL }), 'the 5th, by session: the same user')
    const meanwhile = await upload(request, other.postId, photo, 'other.jpg', { authorization: other.authorization })
    expect(meanwhile.status(), `another user's upload meanwhile: ${await meanwhile.text()}`).toBe(201)
    expectStored(await Promise.all(held.map((upload) => upload.finish())))
    const after = await upload(request, owner.postId, photo, 'after.jpg', { authorization: owner.authorization })
    expect(after.status(), await after.text()).toBe(201)
  } finally {
    await session.dispose()
  }
})

test('uploads whose clients went away give their places back: 4 more run at once, and a 5th is refused again', async ({ request }) => {
  const cut = markers('cut')
  const held = await holdAll(cut)
  await expectTooMany(await upload(request, owner.postId, photo, 'fifth.jpg', { authorization: owner.authorization }), 'the 5th')
  for (const upload of held) upload.abort()
  // An upload is over once the server has removed what it had stored of it.
  const incoming = path.resolve(server.uploadsDir, 'incoming')
  await expect
    .poll(async () => (await Promise.all(cut.map((mark) => filesContaining(incoming, mark)))).flat(), { message: 'the cut uploads are over', timeout: 30_000 })
    .toEqual([])
  const again = await holdAll(markers('again'))
  await expectTooMany(await upload(request, owner.postId, photo, 'fifth.jpg', { authorization: owner.authorization }), 'the 5th, again')
  expectStored(await Promise.all(again.map((upload) => upload.finish())))
})
