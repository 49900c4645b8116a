import type { APIRequestContext, APIResponse } from '@playwright/test'
import { basic, expectPrivateNoStore, mayEditPost, ROLES, signInOrThrow, STATUSES, type Status } from '../support/auth'
import { expectWordPressError, PREFIXES } from '../support/http'
import { corpusFile, PHOTOS, truthOf, uploadOrThrow } from '../support/media'
import {
  createAppPassword,
  createUser,
  importPosts,
  mapLimit,
  revokeAppPassword,
  runId,
  type ImportFeature,
  type Role,
  type ServerEnv,
} from '../support/places-cli'
import { expect, test } from '../support/test'

// GET /places/v1/attachment-exif-gps/{id} is for callers who may edit the post (docs/api.md, Routes, Capabilities). Its answer
// for every role × own or another's post × every status × every kind of credentials, against docs/api.md:
//   no credentials → 401 rest_forbidden; wrong credentials (bad password, revoked token) → 401
//   rest_invalid_credentials; credentials without edit_post (a post that does not exist included) → 403
//   rest_forbidden; allowed → 200 (every post here has a photo with GPS). Always `Cache-Control: private, no-store`.
// The expected answers come from the rules of docs/api.md, written out in e2e/support/auth.ts (mayEditPost).
//
// Trash: docs/api.md says a trashed post counts with the status it had before. The import format has no "status
// before trash", so a trashed post imported by `places import` has no earlier status, and the app counts it as a
// draft; the trashed posts here are tested as drafts.
const TRASHED_POST_WAS: Exclude<Status, 'trash'> = 'draft'

/** Ids that name no post: the largest integer id, and one past the database's range (WordPress's `[\d]+` matches). */
const MISSING_IDS = ['2147483646', '2147483647', '99999999999', '0']
/** Ids the route's `[\d]+` does not match: 404 rest_no_route. */
const NON_NUMERIC_IDS = ['abc', '-1', '1.5', '1e3', '0x1F', '%201', '12abc']

const OWNER = 'owner' // a user of no matrix role, who owns a post of every status too
type Owner = Role | typeof OWNER
type MatrixPost = { id: number; owner: Owner; status: Status; attachmentId: number; title: string }
type User = { email: string; password: string; appPassword: string; revokedAppPassword: string }

const photo = truthOf(PHOTOS.nikon)

let server: ServerEnv
let users: Record<Role, User>
let sessions: Partial<Record<Role, APIRequestContext>> = {}
let anonymous: APIRequestContext
let posts: MatrixPost[] = []
/** a draft of the administrator's whose only image has no GPS: allowed, but 404 rest_no_exif_gps */
let noGpsPostId: number

test.beforeAll(async ({ playwright, databaseUrl, uploadsDir }, testInfo) => {
  test.setTimeout(300_000)
  const baseURL = String(testInfo.project.use.baseURL)
  server = { databaseUrl, uploadsDir, baseURL }
  const run = runId()
  const emailOf = (who: Owner) => `gps-${who}-${run}@e2e.test`

  users = Object.fromEntries(
    ROLES.map((role) => [role, { email: emailOf(role), password: `gps-${role}-password-${run}`, appPassword: '', revokedAppPassword: '' }]),
  ) as Record<Role, User>
  await mapLimit([...ROLES, OWNER] as Owner[], 2, (who) => createUser(server, emailOf(who), `gps-${who}-password-${run}`, who === OWNER ? 'author' : who))
  await mapLimit(ROLES, 2, async (role) => {
    const user = users[role]
    user.appPassword = await createAppPassword(server, user.email, `matrix-${run}`)
    user.revokedAppPassword = await createAppPassword(server, user.email, `matrix-revoked-${run}`)
    await revokeAppPassword(server, user.email, `matrix-revoked-${run}`)
  })

  // A post of every status for every owner, without geodata (geometry null), of this spec's own post type.
  const owners: Owner[] = [...ROLES, OWNER]
  const features: ImportFeature[] = owners.flatMap((owner) =>
    STATUSES.map((status) => ({
      type: 'Feature' as const,
      geometry: null,
      properties: {
        title: `gps matrix ${owner} ${status} ${run}`,
        type: 'gpstest',
        status,
        author: emailOf(owner),
        ...(status === 'future' ? { date: '2099-06-01T12:00:00Z' } : {}),
      },
    })),
  )
  features.push({ type: 'Feature', geometry: null, properties: { title: `gps matrix no gps ${run}`, type: 'gpstest', status: 'draft' } })
  const ids = await importPosts(server, features, users.administrator.email)
  noGpsPostId = ids.at(-1)!

  // Every matrix post gets a photo with GPS, uploaded by the administrator, so that "allowed" means 200.
  const admin = await playwright.request.newContext({ baseURL })
  try {
    const auth = basic(users.administrator.email, users.administrator.appPassword)
    const image = corpusFile(PHOTOS.nikon)
    posts = await mapLimit(
      owners.flatMap((owner) => STATUSES.map((status) => ({ owner, status }))),
      4,
      async ({ owner, status }, index) => {
        const id = ids[index]!
        const title = `matrix photo ${id}`
        const attachment = await uploadOrThrow(admin, id, image, 'matrix.jpg', { authorization: auth, title })
        return { id, owner, status, attachmentId: attachment.id, title }
      },
    )
    await uploadOrThrow(admin, noGpsPostId, corpusFile(PHOTOS.noExif), 'no-gps.jpg', { authorization: auth })
  } finally {
    await admin.dispose()
  }

  anonymous = await playwright.request.newContext({ baseURL })
  sessions = {}
  for (const role of ROLES) sessions[role] = await signInOrThrow(playwright.request, baseURL, users[role].email, users[role].password)
})

test.afterAll(async () => {
  await Promise.all([anonymous, ...Object.values(sessions)].map((context) => context?.dispose()))
})

type Expected = { status: 200 } | { status: 401 | 403 | 404; code: string }

function expectedFor(role: Role, post: MatrixPost): Expected {
  return mayEditPost(role, post.owner === role, post.status, TRASHED_POST_WAS) ? { status: 200 } : { status: 403, code: 'rest_forbidden' }
}

/** What is wrong with one answer, or null: status, code, body shape and Cache-Control. */
async function mismatch(response: APIResponse, expected: Expected, post: MatrixPost | null, label: string): Promise<string | null> {
  const text = await response.text()
  const got = `${response.status()} ${text.slice(0, 200)}`
  if (response.status() !== expected.status) return `${label}: expected ${expected.status}${'code' in expected ? ` ${expected.code}` : ''}, got ${got}`
  if (response.headers()['cache-control'] !== 'private, no-store') return `${label}: Cache-Control ${response.headers()['cache-control']}`
  let body: Record<string, unknown>
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    return `${label}: not JSON: ${got}`
  }
  if ('code' in expected) {
    const data = body.data as { status?: unknown } | undefined
    if (body.code !== expected.code || data?.status !== expected.status || typeof body.message !== 'string') {
      return `${label}: expected ${expected.status} ${expected.code}, got ${got}`
    }
    return null
  }
  if (!post) return `${label}: no post to compare with`
  const wanted = { latitude: photo.latitude, longitude: photo.longitude, attachment_id: post.attachmentId, attachment_title: post.title }
  const keys = Object.keys(body).sort().join(',')
  if (keys !== 'attachment_id,attachment_title,latitude,longitude') return `${label}: fields ${keys}`
  const close = (a: unknown, b: number | null) => typeof a === 'number' && b !== null && Math.abs(a - b) <= 1e-6
  if (
    !close(body.latitude, wanted.latitude) ||
    !close(body.longitude, wanted.longitude) ||
    body.attachment_id !== wanted.attachment_id ||
    body.attachment_title !== wanted.attachment_title
  ) {
    return `${label}: expected ${JSON.stringify(wanted)}, got ${text}`
  }
  return null
}

async function checkAll(cases: { label: string; send: () => Promise<APIResponse>; expected: Expected; post: MatrixPost | null }[]): Promise<void> {
  const problems = await mapLimit(cases, 8, async ({ label, send, expected, post }) => mismatch(await send(), expected, post, label))
  expect(problems.filter(Boolean)).toEqual([])
  expect(cases.length).toBeGreaterThan(0)
}

const route = (id: number | string, prefix = '/places/v1') => `${prefix}/attachment-exif-gps/${id}`

test.describe('attachment-exif-gps: who may read it', () => {
  test('the rules as written out here say what docs/api.md sums them up as', () => {
    // "administrators and editors may edit any post; authors their own; contributors their own unpublished,
    // unscheduled posts; subscribers and anonymous callers nothing."
    for (const status of STATUSES) {
      const effective = status === 'trash' ? TRASHED_POST_WAS : status
      for (const isOwn of [true, false]) {
        expect(mayEditPost('administrator', isOwn, status, TRASHED_POST_WAS)).toBe(true)
        expect(mayEditPost('editor', isOwn, status, TRASHED_POST_WAS)).toBe(true)
        expect(mayEditPost('author', isOwn, status, TRASHED_POST_WAS)).toBe(isOwn)
        expect(mayEditPost('contributor', isOwn, status, TRASHED_POST_WAS)).toBe(isOwn && effective !== 'publish' && effective !== 'future')
        expect(mayEditPost('subscriber', isOwn, status, TRASHED_POST_WAS)).toBe(false)
      }
    }
    // A trashed post that was published counts as published.
    expect(mayEditPost('contributor', true, 'trash', 'publish')).toBe(false)
    expect(mayEditPost('contributor', true, 'trash', 'private')).toBe(true)
  })

  test("the matrix covers every role and status, own and another's", () => {
    expect(posts).toHaveLength((ROLES.length + 1) * STATUSES.length)
    for (const role of ROLES) {
      for (const status of STATUSES) {
        expect(posts.filter((p) => p.owner === role && p.status === status)).toHaveLength(1)
        expect(posts.filter((p) => p.owner !== role && p.status === status).length).toBeGreaterThan(0)
      }
    }
  })

  for (const role of ROLES) {
    test(`${role}, signed in with the session cookie: 200 where it may edit the post, else 403 rest_forbidden`, async () => {
      const session = sessions[role]!
      await checkAll(
        posts.map((post) => ({
          label: `${role} session → ${post.owner}'s ${post.status} post ${post.id}`,
          send: () => session.get(route(post.id)),
          expected: expectedFor(role, post),
          post,
        })),
      )
    })
  }

  for (const role of ROLES) {
    test(`${role}, with an application password: 200 where it may edit the post, else 403 rest_forbidden`, async () => {
      const authorization = basic(users[role].email, users[role].appPassword)
      await checkAll(
        posts.map((post) => ({
          label: `${role} app password → ${post.owner}'s ${post.status} post ${post.id}`,
          send: () => anonymous.get(route(post.id), { headers: { Authorization: authorization } }),
          expected: expectedFor(role, post),
          post,
        })),
      )
    })
  }

  test('no credentials: 401 rest_forbidden for every post, and for posts that do not exist', async () => {
    await checkAll(
      [...posts.map((post) => ({ id: String(post.id), post })), ...MISSING_IDS.map((id) => ({ id, post: null }))].map(({ id, post }) => ({
        label: `anonymous → ${post ? `${post.owner}'s ${post.status} post` : 'missing post'} ${id}`,
        send: () => anonymous.get(route(id)),
        expected: { status: 401, code: 'rest_forbidden' },
        post,
      })),
    )
  })

  test("a wrong password, for every role: 401 rest_invalid_credentials for every post, never the post's answer", async () => {
    await checkAll(
      ROLES.flatMap((role) =>
        [...posts.map((post) => ({ id: String(post.id), post })), { id: MISSING_IDS[0]!, post: null }].map(({ id, post }) => ({
          label: `${role} wrong password → post ${id}`,
          send: () => anonymous.get(route(id), { headers: { Authorization: basic(users[role].email, `${users[role].appPassword}x`) } }),
          expected: { status: 401, code: 'rest_invalid_credentials' },
          post,
        })),
      ),
    )
  })

  test('the account password is not an application password: 401 rest_invalid_credentials', async () => {
    await checkAll(
      ROLES.flatMap((role) =>
        posts
          .filter((p) => p.owner === role)
          .map((post) => ({
            label: `${role} account password over Basic → post ${post.id}`,
            send: () => anonymous.get(route(post.id), { headers: { Authorization: basic(users[role].email, users[role].password) } }),
            expected: { status: 401, code: 'rest_invalid_credentials' },
            post,
          })),
      ),
    )
  })

  test('a revoked application password, for every role: 401 rest_invalid_credentials for every post', async () => {
    await checkAll(
      ROLES.flatMap((role) =>
        posts.map((post) => ({
          label: `${role} revoked app password → ${post.owner}'s ${post.status} post ${post.id}`,
          send: () => anonymous.get(route(post.id), { headers: { Authorization: basic(users[role].email, users[role].revokedAppPassword) } }),
          expected: { status: 401, code: 'rest_invalid_credentials' },
          post,
        })),
      ),
    )
  })

  test('wrong Basic credentials are refused even when a valid session cookie rides along', async () => {
    const session = sessions.administrator!
    const own = posts.find((p) => p.owner === 'administrator' && p.status === 'draft')!
    await checkAll([
      {
        label: 'administrator session + wrong Basic',
        send: () => session.get(route(own.id), { headers: { Authorization: basic(users.administrator.email, 'not-the-password') } }),
        expected: { status: 401, code: 'rest_invalid_credentials' },
        post: own,
      },
      {
        label: 'administrator session + revoked Basic',
        send: () => session.get(route(own.id), { headers: { Authorization: basic(users.administrator.email, users.administrator.revokedAppPassword) } }),
        expected: { status: 401, code: 'rest_invalid_credentials' },
        post: own,
      },
    ])
  })

  test('a forged session cookie counts for nothing: 401', async () => {
    const post = posts.find((p) => p.owner === 'administrator' && p.status === 'publish')!
    for (const cookie of ['next-auth.session-token=forged', 'next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..AAAA.BBBB.CCCC']) {
      const response = await anonymous.get(route(post.id), { headers: { Cookie: cookie } })
      expect(response.status(), cookie).toBe(401)
      expectPrivateNoStore(response, cookie)
      expect(['rest_forbidden', 'rest_invalid_credentials']).toContain((await response.json()).code)
    }
  })
})

test.describe('attachment-exif-gps: what it never tells', () => {
  test('a post that does not exist is 403 rest_forbidden for every signed-in role, never 404', async () => {
    await checkAll(
      ROLES.flatMap((role) =>
        MISSING_IDS.flatMap((id) => [
          {
            label: `${role} session → missing post ${id}`,
            send: () => sessions[role]!.get(route(id)),
            expected: { status: 403 as const, code: 'rest_forbidden' },
            post: null,
          },
          {
            label: `${role} app password → missing post ${id}`,
            send: () => anonymous.get(route(id), { headers: { Authorization: basic(users[role].email, users[role].appPassword) } }),
            expected: { status: 403 as const, code: 'rest_forbidden' },
            post: null,
          },
        ]),
      ),
    )
  })

  test('the 403 for a post that does not exist is the very 403 of a post one may not edit', async () => {
    const authorization = basic(users.subscriber.email, users.subscriber.appPassword)
    const existing = await anonymous.get(route(posts[0]!.id), { headers: { Authorization: authorization } })
    const missing = await anonymous.get(route(MISSING_IDS[0]!), { headers: { Authorization: authorization } })
    expect(existing.status()).toBe(403)
    expect(await missing.text()).toBe(await existing.text())
    const { date: _a, ...existingHeaders } = existing.headers()
    const { date: _b, ...missingHeaders } = missing.headers()
    expect(missingHeaders).toEqual(existingHeaders)
  })

  test('a non-numeric id is 404 rest_no_route, whoever asks', async () => {
    await checkAll(
      NON_NUMERIC_IDS.flatMap((id) => [
        { label: `anonymous → ${id}`, send: () => anonymous.get(route(id)), expected: { status: 404 as const, code: 'rest_no_route' }, post: null },
        {
          label: `administrator session → ${id}`,
          send: () => sessions.administrator!.get(route(id)),
          expected: { status: 404 as const, code: 'rest_no_route' },
          post: null,
        },
        {
          label: `editor app password → ${id}`,
          send: () => anonymous.get(route(id), { headers: { Authorization: basic(users.editor.email, users.editor.appPassword) } }),
          expected: { status: 404 as const, code: 'rest_no_route' },
          post: null,
        },
      ]),
    )
  })

  test('allowed, but no attached image has GPS: 404 rest_no_exif_gps saying 1 image was looked at', async () => {
    for (const prefix of PREFIXES) {
      const response = await sessions.administrator!.get(route(noGpsPostId, prefix))
      const body = await expectWordPressError(response, 404, 'rest_no_exif_gps', { cors: false })
      expectPrivateNoStore(response, `${prefix} no GPS`)
      expect(body.message).toMatch(/\b1 image\b/)
    }
    // Who may not edit it still learns nothing about its images.
    const response = await sessions.subscriber!.get(route(noGpsPostId))
    await expectWordPressError(response, 403, 'rest_forbidden', { cors: false })
  })
})

test.describe('attachment-exif-gps: answers and headers', () => {
  test('a success is exactly latitude, longitude, attachment_id and attachment_title, as JSON numbers and a string', async () => {
    const post = posts.find((p) => p.owner === 'author' && p.status === 'publish')!
    const response = await anonymous.get(route(post.id), { headers: { Authorization: basic(users.author.email, users.author.appPassword) } })
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toMatch(/^application\/json/)
    expectPrivateNoStore(response, 'a 200')
    const body = await response.json()
    expect(Object.keys(body).sort()).toEqual(['attachment_id', 'attachment_title', 'latitude', 'longitude'])
    expect(typeof body.latitude).toBe('number')
    expect(typeof body.longitude).toBe('number')
    expect(body.attachment_id).toBe(post.attachmentId)
    expect(body.attachment_title).toBe(post.title)
    expect(Math.abs(body.latitude - photo.latitude!)).toBeLessThanOrEqual(1e-6)
    expect(Math.abs(body.longitude - photo.longitude!)).toBeLessThanOrEqual(1e-6)
  })

  for (const prefix of PREFIXES) {
    test(`${prefix}: every kind of answer is WordPress-shaped and Cache-Control: private, no-store`, async () => {
      const own = posts.find((p) => p.owner === 'contributor' && p.status === 'draft')!
      const others = posts.find((p) => p.owner === 'editor' && p.status === 'draft')!
      const contributor = { Authorization: basic(users.contributor.email, users.contributor.appPassword) }

      const ok = await anonymous.get(route(own.id, prefix), { headers: contributor })
      expect(ok.status()).toBe(200)
      expectPrivateNoStore(ok, `${prefix} 200`)
      expect((await ok.json()).attachment_id).toBe(own.attachmentId)

      const cases: [string, APIResponse, number, string][] = [
        ['no credentials', await anonymous.get(route(own.id, prefix)), 401, 'rest_forbidden'],
        [
          'a wrong password',
          await anonymous.get(route(own.id, prefix), { headers: { Authorization: basic(users.contributor.email, 'wrong') } }),
          401,
          'rest_invalid_credentials',
        ],
        ["another's draft", await anonymous.get(route(others.id, prefix), { headers: contributor }), 403, 'rest_forbidden'],
        ['a missing post', await anonymous.get(route(MISSING_IDS[0]!, prefix), { headers: contributor }), 403, 'rest_forbidden'],
        ['no image with GPS', await sessions.editor!.get(route(noGpsPostId, prefix)), 404, 'rest_no_exif_gps'],
        ['a non-numeric id', await anonymous.get(route('abc', prefix), { headers: contributor }), 404, 'rest_no_route'],
      ]
      for (const [what, response, status, code] of cases) {
        const body = await expectWordPressError(response, status, code, { cors: false })
        expectPrivateNoStore(response, `${prefix} ${what}`)
        expect(body.message, what).not.toBe(body.code)
      }
    })
  }

  test('/wp-json/places/v1 answers as /places/v1 for every role and credential', async () => {
    const pairs = ROLES.flatMap((role) => posts.filter((p) => p.status === 'publish' || p.status === 'private').map((post) => ({ role, post })))
    await checkAll(
      pairs.flatMap(({ role, post }) => [
        {
          label: `/wp-json ${role} session → ${post.owner}'s ${post.status} post`,
          send: () => sessions[role]!.get(route(post.id, '/wp-json/places/v1')),
          expected: expectedFor(role, post),
          post,
        },
        {
          label: `/wp-json ${role} app password → ${post.owner}'s ${post.status} post`,
          send: () => anonymous.get(route(post.id, '/wp-json/places/v1'), { headers: { Authorization: basic(users[role].email, users[role].appPassword) } }),
          expected: expectedFor(role, post),
          post,
        },
      ]),
    )
  })
})
