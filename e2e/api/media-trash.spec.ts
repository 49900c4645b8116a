import { basic } from '../support/auth'
import { expectWordPressError } from '../support/http'
import { corpusFile, filesContaining, PHOTOS, upload, uploadOrThrow } from '../support/media'
import { createAppPassword, createUser, importPosts, places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { queryRows } from '../../test/support/sql'

// A post in the Trash takes no upload, as it takes no edit (lib/media/attachments.ts): 409 rest_post_in_trash, for
// its author and for editors alike, and nothing is stored; who may not edit it learns nothing (403, as for any post).

test.describe.configure({ timeout: 90_000 })

const run = runId()
let server: ServerEnv
const people = {} as Record<'author' | 'editor' | 'otherAuthor', { email: string; authorization: string }>
let postId: number

test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(120_000)
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
  const roles = { author: 'author', editor: 'editor', otherAuthor: 'author' } as const
  for (const [who, role] of Object.entries(roles) as [keyof typeof roles, (typeof roles)[keyof typeof roles]][]) {
    const email = `media-trash-${who.toLowerCase()}-${run}@e2e.test`
    await createUser(server, email, `media-trash-password-${run}`, role)
    people[who] = { email, authorization: basic(email, await createAppPassword(server, email, `media-trash-${run}`)) }
  }
  ;[postId] = (await importPosts(
    server,
    [{ type: 'Feature', geometry: null, properties: { title: `media trash ${run}`, status: 'publish', author: people.author.email } }],
    people.author.email,
  )) as [number]
})

async function attachmentCount(): Promise<number> {
  const rows = await queryRows<{ n: number | string }>(server.databaseUrl, 'SELECT count(*) AS n FROM attachments WHERE post_id = ?', [postId])
  return Number(rows[0]!.n)
}

test('uploads to a post in the Trash: 409 rest_post_in_trash for its author and an editor; 403 for another author; nothing stored', async ({
  request,
  uploadsDir,
}) => {
  // Before the Trash, its author uploads as always
  await uploadOrThrow(request, postId, corpusFile(PHOTOS.noExif), 'before.jpg', { authorization: people.author.authorization })
  expect(await attachmentCount()).toBe(1)
  await places(server, 'post', 'delete', String(postId))

  const marker = `trash-upload-${run}`
  const body = Buffer.concat([corpusFile(PHOTOS.noExif), Buffer.from(marker)])
  for (const who of ['author', 'editor'] as const) {
    const refused = await upload(request, postId, body, `${marker}.jpg`, { authorization: people[who].authorization })
    const error = await expectWordPressError(refused, 409, 'rest_post_in_trash', { cors: false })
    expect(error.message, who).toMatch(/Trash/)
  }
  await expectWordPressError(await upload(request, postId, body, `${marker}.jpg`, { authorization: people.otherAuthor.authorization }), 403, 'rest_forbidden', {
    cors: false,
  })
  expect(await attachmentCount()).toBe(1)
  expect(await filesContaining(uploadsDir, marker)).toEqual([])
})
