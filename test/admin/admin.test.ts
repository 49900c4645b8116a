import assert from 'node:assert/strict'
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { postFormSchema } from '../../lib/admin/forms'
import {
  createDraft,
  deletePost,
  findEditablePost,
  listCategoryOptions,
  listEditablePosts,
  listPostTypes,
  restorePost,
  trashPost,
  updatePost,
} from '../../lib/admin/posts'
import { findPreviewPage, savePreview } from '../../lib/admin/preview'
import { findPostPage } from '../../lib/places/post-page'
import { fillSearchColumns } from '../../lib/places/search'
import { addUser, changeUserRole, listUsers } from '../../lib/admin/users'
import { canEditPost, ROLES } from '../../lib/auth/capabilities'
import { getAuthOptions } from '../../lib/auth/config'
import { findSessionUser } from '../../lib/auth/sessions'
import { disconnectDb, getDb, transaction } from '../../lib/db'
import { ApiError } from '../../lib/http/errors'
import { storeAttachment } from '../../lib/media/storage'
import { migrate } from '../../lib/migrate'
import { STATUSES } from '../../lib/places/post-fields'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// lib/admin against a real database: the posts list shows exactly what canEditPost allows, saving checks
// publish_posts, and the last administrator stays one. lib/ reads its configuration once per process, so this
// file runs on SQLite, and runs itself again in a child process for PostgreSQL when TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
const uploads = mkdtempSync(path.join(tmpdir(), 'places-admin-uploads-'))

type Actor = { id: number; role: string }
const users = new Map<string, Actor>()
const actor = (role: string): Actor => users.get(role)!

async function rejectsWith(promise: Promise<unknown>, code: string, status?: number): Promise<ApiError> {
  try {
    await promise
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, not ${String(error)}`)
    assert.equal(error.code, code)
    if (status !== undefined) assert.equal(error.status, status)
    return error
  }
  assert.fail(`expected ${code}`)
}

/** Attaches a real photo of the corpus to post `id`; returns the attachment ids. */
async function storeFixturePhotos(id: number): Promise<number[]> {
  const photo = path.join('test', 'fixtures', 'exif', 'gox_gps.jpg')
  return [(await storeAttachment({ postId: id, filename: photo, body: createReadStream(photo) })).id]
}

function form(overrides: Record<string, unknown> = {}) {
  return postFormSchema.parse({
    title: 'A place',
    content: '',
    excerpt: '',
    status: 'draft',
    type: 'post',
    slug: '',
    date: '2024-05-01T12:00:00',
    categoryIds: [],
    newCategories: [],
    tags: [],
    address: '',
    locationPrecision: 'exact',
    latitude: '',
    longitude: '',
    ...overrides,
  })
}

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  process.env.UPLOADS_DIR = uploads
  await migrate()
  for (const role of ROLES) {
    const id = await addUser({ id: 0, role: 'administrator' }, { email: `${role}@admin.test`, password: 'long enough', role })
    users.set(role, { id, role })
  }
})

after(async () => {
  await disconnectDb()
  await database.drop()
  rmSync(uploads, { recursive: true, force: true })
})

describe('the posts list', () => {
  test('shows each role exactly the posts canEditPost lets it edit, trashed ones by their earlier status', async () => {
    const db = getDb()
    const posts: { id: number; authorId: number; status: string; statusBeforeTrash: string | null }[] = []
    const owners = [actor('author'), actor('contributor'), actor('editor')]
    for (const owner of owners) {
      for (const status of STATUSES) {
        for (const before of status === 'trash' ? [null, ...STATUSES.filter((s) => s !== 'trash')] : [null]) {
          const post = await db.post.create({
            data: {
              title: `scope ${owner.role} ${status} ${before}`,
              slug: `scope-${owner.id}-${status}-${before}`,
              status,
              statusBeforeTrash: before,
              publishedAt: new Date(),
              authorId: owner.id,
            },
            select: { id: true, authorId: true, status: true, statusBeforeTrash: true },
          })
          posts.push(post)
        }
      }
    }
    // written here without lib/: their search text is filled as a server does at start
    assert.equal(await fillSearchColumns(), posts.length)
    for (const role of ROLES) {
      const listed: number[] = []
      // "All" and the Trash, which All leaves out
      for (const status of [null, 'trash']) {
        for (let page = 1, pageCount = 1; page <= pageCount; page++) {
          const list = await listEditablePosts(actor(role), { search: 'scope', status, type: null, categoryId: null, page })
          pageCount = list.pageCount
          listed.push(...list.posts.map((p) => p.id))
          assert.equal(
            list.posts.every((p) => (p.status === 'trash') === (status === 'trash')),
            true,
          )
        }
      }
      const expected = posts.filter((p) => canEditPost(actor(role), p)).map((p) => p.id)
      assert.deepEqual(
        listed.sort((a, b) => a - b),
        expected.sort((a, b) => a - b),
        role,
      )
      for (const p of posts) assert.equal((await findEditablePost(actor(role), p.id)) !== null, expected.includes(p.id), `${role} opens ${p.id}`)
    }
  })

  test('search ignores case; filters by status and type; counts each status, All without the Trash', async () => {
    const filters = { search: 'SCOPE AUTHOR', status: null, type: null, categoryId: null, page: 1 }
    const all = await listEditablePosts(actor('editor'), filters)
    assert.equal(all.total, 5)
    assert.deepEqual(all.counts, { all: 5, publish: 1, future: 1, draft: 1, pending: 1, private: 1, trash: 6 })
    assert.equal((await listEditablePosts(actor('editor'), { ...filters, status: 'trash' })).total, 6)
    assert.equal((await listEditablePosts(actor('editor'), { ...filters, type: 'landmark' })).total, 0)
    // a contributor counts only what canEditPost lets them edit (the first test): none of the author's posts
    assert.deepEqual((await listEditablePosts(actor('contributor'), filters)).counts, { all: 0 })
  })

  test('search ignores accents and case in title and address, and in content when asked; sorts by title', async () => {
    const id = await createDraft(actor('editor'), { title: 'Sensō-ji', type: 'post' })
    await updatePost(actor('editor'), id, form({ title: 'Sensō-ji', address: 'Asakusa, Tōkyō', content: 'Le plus vieux temple, près du Café Ōmori' }))
    const other = await createDraft(actor('editor'), { title: 'Café de Flore', type: 'post' })
    const search = (search: string, searchContent = false) =>
      listEditablePosts(actor('editor'), { search, searchContent, status: null, type: null, categoryId: null, page: 1, orderby: 'title', order: 'asc' })
    assert.deepEqual(
      (await search('senso')).posts.map((p) => p.id),
      [id],
    )
    assert.deepEqual(
      (await search('TOKYO')).posts.map((p) => p.id),
      [id],
    )
    assert.deepEqual(
      (await search('CAFE')).posts.map((p) => p.id),
      [other],
    )
    assert.deepEqual(
      (await search('CAFE', true)).posts.map((p) => p.id),
      [other, id],
    )
    assert.deepEqual(
      (await search('vieux')).posts.map((p) => p.id),
      [],
    )
    assert.deepEqual(
      (await search('VIEUX', true)).posts.map((p) => p.id),
      [id],
    )
    assert.deepEqual(
      (await search('100%')).posts.map((p) => p.id),
      [],
    )
    // LIKE's wildcards and escape character are plain characters here, as typed.
    const sale = await createDraft(actor('editor'), { title: 'Sale: 50% off_today \\ only', type: 'post' })
    for (const plain of ['_', '%', '\\', 'sens_-ji', 's%ji'])
      assert.deepEqual(
        (await search(plain)).posts.map((p) => p.id),
        plain.length === 1 ? [sale] : [],
        plain,
      )
    assert.deepEqual(
      (await search('50% OFF_')).posts.map((p) => p.id),
      [sale],
    )
  })
})

describe('saving a post', () => {
  test('a contributor may save drafts and pending posts, never publish; an author may', async () => {
    const id = await createDraft(actor('contributor'), { title: 'Mine', type: 'post' })
    for (const status of ['publish', 'future', 'private']) {
      const error = await rejectsWith(updatePost(actor('contributor'), id, form({ status })), 'rest_cannot_publish', 403)
      assert.deepEqual(Object.keys(error.data.params as object), ['status'])
    }
    assert.equal((await getDb().post.findUniqueOrThrow({ where: { id } })).status, 'draft', 'nothing was saved')
    assert.equal((await updatePost(actor('contributor'), id, form({ status: 'pending', latitude: '1', longitude: '2' }))).post.status, 'pending')
    const context = await findEditablePost(actor('contributor'), id)
    assert.deepEqual(context?.allowedStatuses, ['draft', 'pending', 'trash'])

    const own = await createDraft(actor('author'), { title: 'Authored', type: 'post' })
    assert.equal((await updatePost(actor('author'), own, form({ status: 'publish' }))).post.status, 'publish')
    await rejectsWith(updatePost(actor('author'), id, form()), 'rest_forbidden', 403)
  })

  test('trashing keeps the earlier status; restoring forgets it', async () => {
    const id = await createDraft(actor('editor'), { title: 'Trash me', type: 'post' })
    await updatePost(actor('editor'), id, form({ status: 'publish' }))
    await updatePost(actor('editor'), id, form({ status: 'trash' }))
    assert.deepEqual(await getDb().post.findUniqueOrThrow({ where: { id }, select: { status: true, statusBeforeTrash: true } }), {
      status: 'trash',
      statusBeforeTrash: 'publish',
    })
    // As WordPress: a post in the Trash is restored before it is edited.
    await rejectsWith(updatePost(actor('editor'), id, form({ status: 'trash', title: 'Still trash' })), 'rest_post_in_trash', 409)
    assert.deepEqual(await getDb().post.findUniqueOrThrow({ where: { id }, select: { title: true, statusBeforeTrash: true } }), {
      title: 'A place',
      statusBeforeTrash: 'publish',
    })
    await updatePost(actor('editor'), id, form({ status: 'draft' }))
    assert.deepEqual(await getDb().post.findUniqueOrThrow({ where: { id }, select: { status: true, statusBeforeTrash: true } }), {
      status: 'draft',
      statusBeforeTrash: null,
    })
  })

  test("a title's character references: shown decoded in the editor, kept as stored by a save that leaves it as shown", async () => {
    const id = await createDraft(actor('editor'), { title: 'x', type: 'post' })
    await getDb().post.update({ where: { id }, data: { title: 'Lisbon &amp; Sintra, Rock&#8217;n roll' } })
    const stored = async () => (await getDb().post.findUniqueOrThrow({ where: { id }, select: { title: true } })).title
    const shown = (await findEditablePost(actor('editor'), id))!.post.title
    assert.equal(shown, 'Lisbon & Sintra, Rock’n roll')
    assert.equal((await updatePost(actor('editor'), id, form({ title: shown }))).post.title, shown)
    assert.equal(await stored(), 'Lisbon &amp; Sintra, Rock&#8217;n roll')
    await updatePost(actor('editor'), id, form({ title: 'Lisbon & Sintra' }))
    assert.equal(await stored(), 'Lisbon & Sintra', 'a title changed is stored as typed')
  })

  test('slugs: from the title when empty, unique within a type, free across types', async () => {
    const a = await createDraft(actor('editor'), { title: 'Same Name', type: 'post' })
    const b = await createDraft(actor('editor'), { title: 'Same Name', type: 'post' })
    const c = await createDraft(actor('editor'), { title: 'Same Name', type: 'landmark' })
    const slug = async (id: number) => (await getDb().post.findUniqueOrThrow({ where: { id } })).slug
    assert.deepEqual([await slug(a), await slug(b), await slug(c)], ['same-name', 'same-name-2', 'same-name'])
    assert.equal((await updatePost(actor('editor'), b, form({ title: 'Same Name', slug: 'Same Name!' }))).post.slug, 'same-name-2')
    assert.equal((await updatePost(actor('editor'), a, form({ title: 'Same Name', slug: '' }))).post.slug, 'same-name', 'a post keeps its own slug')
  })

  test('categories: picked by id, created by path, replaced on each save', async () => {
    const id = await createDraft(actor('editor'), { title: 'Filed', type: 'post' })
    const first = await updatePost(actor('editor'), id, form({ newCategories: ['Europe > France', 'Europe'] }))
    const rows = await getDb().category.findMany({ select: { id: true, name: true, parentId: true } })
    const europe = rows.find((r) => r.name === 'Europe' && r.parentId === null)!
    const france = rows.find((r) => r.name === 'France' && r.parentId === europe.id)!
    assert.deepEqual(
      first.post.categoryIds,
      [europe.id, france.id].sort((x, y) => x - y),
    )
    assert.deepEqual((await updatePost(actor('editor'), id, form({ categoryIds: [france.id] }))).post.categoryIds, [france.id])
    await rejectsWith(updatePost(actor('editor'), id, form({ categoryIds: [987654] })), 'rest_invalid_param', 400)
  })

  test("the list filtered by a category shows its posts and those of its descendants, not its parent's", async () => {
    const inParis = await createDraft(actor('editor'), { title: 'Filter Paris', type: 'post' })
    await updatePost(actor('editor'), inParis, form({ title: 'Filter Paris', newCategories: ['Filter Europe > Filter France > Filter Paris'] }))
    const inEurope = await createDraft(actor('editor'), { title: 'Filter Europe', type: 'post' })
    await updatePost(actor('editor'), inEurope, form({ title: 'Filter Europe', newCategories: ['Filter Europe'] }))
    const ids = async (name: string) => {
      const category = await getDb().category.findFirstOrThrow({ where: { name } })
      const list = await listEditablePosts(actor('editor'), { search: 'filter', status: null, type: null, categoryId: category.id, page: 1 })
      return list.posts.map((p) => p.id).sort((a, b) => a - b)
    }
    assert.deepEqual(
      await ids('Filter Europe'),
      [inParis, inEurope].sort((a, b) => a - b),
    )
    assert.deepEqual(await ids('Filter France'), [inParis])
    assert.deepEqual(await ids('Filter Paris'), [inParis])
    assert.equal(
      (await listEditablePosts(actor('editor'), { search: '', status: null, type: null, categoryId: 987654, page: 1 })).total,
      0,
      'an unknown category has no posts',
    )
  })

  test('only editors and administrators add categories; others pick existing ones', async () => {
    // Published: a category only an editor's draft used would be hidden from the others (what the admin names, below).
    const seeded = await createDraft(actor('editor'), { title: 'Seeds a category', type: 'post' })
    assert.equal((await updatePost(actor('editor'), seeded, form({ newCategories: ['Asia > Japan'], status: 'publish' }))).canAddCategories, true)
    for (const role of ['author', 'contributor']) {
      const id = await createDraft(actor(role), { title: `Filed by a ${role}`, type: 'post' })
      const error = await rejectsWith(updatePost(actor(role), id, form({ newCategories: [`Invented by a ${role}`] })), 'rest_cannot_create', 403)
      assert.deepEqual(Object.keys(error.data.params as object), ['newCategories'])
      assert.equal(await getDb().category.count({ where: { name: `Invented by a ${role}` } }), 0, 'nothing was created')
      const japan = await getDb().category.findFirstOrThrow({ where: { name: 'Japan' } })
      assert.deepEqual(
        (await updatePost(actor(role), id, form({ newCategories: ['asia > JAPAN'] }))).post.categoryIds,
        [japan.id],
        'an existing path is picked',
      )
      assert.equal((await findEditablePost(actor(role), id))?.canAddCategories, false)
    }
  })

  // A write another session commits between the permission check and the write must not be overwritten by a write
  // the check would now refuse: an editor publishes a contributor's pending post while the contributor saves it.
  async function whileAnEditorPublishes(id: number, write: () => Promise<unknown>): Promise<PromiseSettledResult<unknown>> {
    let published!: () => void
    const publishing = new Promise<void>((resolve) => (published = resolve))
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const editor = transaction(async (tx) => {
      await tx.post.update({ where: { id }, data: { status: 'publish' } })
      published()
      await held
    })
    await publishing
    const racing = Promise.allSettled([write()])
    await new Promise((resolve) => setTimeout(resolve, 300)) // the write has read the row by now, if it reads outside
    release()
    await editor
    return (await racing)[0]
  }

  test("a contributor's save that races an editor's publishing is refused, and the post stays published", async () => {
    const id = await createDraft(actor('contributor'), { title: 'Raced save', type: 'post' })
    await updatePost(actor('contributor'), id, form({ title: 'Raced save', status: 'pending' }))
    const result = await whileAnEditorPublishes(id, () => updatePost(actor('contributor'), id, form({ title: 'Raced save, edited', status: 'pending' })))
    assert.equal(result.status, 'rejected')
    assert.equal((result.reason as ApiError).code, 'rest_forbidden')
    assert.deepEqual(await getDb().post.findUniqueOrThrow({ where: { id }, select: { status: true, title: true } }), { status: 'publish', title: 'Raced save' })
  })

  test("a contributor's delete that races an editor's publishing is refused, and the post and its photos stay", async () => {
    const id = await createDraft(actor('contributor'), { title: 'Raced delete', type: 'post' })
    const [attachmentId] = await storeFixturePhotos(id)
    const file = (await getDb().attachment.findUniqueOrThrow({ where: { id: attachmentId } })).filePath
    await trashPost(actor('contributor'), id)
    const result = await whileAnEditorPublishes(id, () => deletePost(actor('contributor'), id))
    assert.equal(result.status, 'rejected')
    assert.equal((result.reason as ApiError).code, 'rest_forbidden')
    assert.equal((await getDb().post.findUniqueOrThrow({ where: { id } })).status, 'publish')
    for (const folder of ['originals', 'public']) assert.ok(existsSync(path.join(uploads, folder, file)), `${folder}/${file} is kept`)
  })

  test('delete moves to the Trash; restore brings back the earlier status; only a trashed post is deleted for good, with its photos', async () => {
    const id = await createDraft(actor('author'), { title: 'Trash and back', type: 'post' })
    await updatePost(actor('author'), id, form({ title: 'Trash and back', status: 'publish' }))
    const [attachmentId] = await storeFixturePhotos(id)
    const file = (await getDb().attachment.findUniqueOrThrow({ where: { id: attachmentId } })).filePath
    await rejectsWith(deletePost(actor('author'), id), 'rest_not_in_trash', 409)
    await trashPost(actor('author'), id)
    assert.deepEqual(await getDb().post.findUniqueOrThrow({ where: { id }, select: { status: true, statusBeforeTrash: true } }), {
      status: 'trash',
      statusBeforeTrash: 'publish',
    })
    await rejectsWith(restorePost(actor('contributor'), id), 'rest_forbidden', 403)
    await restorePost(actor('author'), id)
    assert.deepEqual(await getDb().post.findUniqueOrThrow({ where: { id }, select: { status: true, statusBeforeTrash: true } }), {
      status: 'publish',
      statusBeforeTrash: null,
    })
    await trashPost(actor('author'), id)
    await deletePost(actor('author'), id)
    assert.equal(await getDb().post.findUnique({ where: { id } }), null)
    for (const folder of ['originals', 'public']) assert.ok(!existsSync(path.join(uploads, folder, file)), `${folder}/${file} is removed`)
  })

  test('a scheduled post restored after its time comes back published', async () => {
    const id = await createDraft(actor('editor'), { title: 'Was scheduled', type: 'post' })
    await getDb().post.update({ where: { id }, data: { status: 'trash', statusBeforeTrash: 'future', publishedAt: new Date(Date.now() - 60_000) } })
    await restorePost(actor('editor'), id)
    assert.equal((await getDb().post.findUniqueOrThrow({ where: { id } })).status, 'publish')
  })

  test('only who may delete a post deletes it', async () => {
    const id = await createDraft(actor('contributor'), { title: 'Gone soon', type: 'post' })
    await rejectsWith(trashPost(actor('author'), id), 'rest_forbidden', 403)
    await trashPost(actor('contributor'), id)
    await rejectsWith(deletePost(actor('author'), id), 'rest_forbidden', 403)
    await deletePost(actor('contributor'), id)
    assert.equal(await getDb().post.findUnique({ where: { id } }), null)
    await rejectsWith(createDraft(actor('subscriber'), { title: 'No', type: 'post' }), 'rest_forbidden', 403)
  })
})

describe('preview', () => {
  test("a preview is its user's copy, shown to those who may edit the post, until the post is saved after it", async () => {
    const id = await createDraft(actor('author'), { title: 'Draft for preview', type: 'post' })
    const { type, slug } = await getDb().post.findUniqueOrThrow({ where: { id }, select: { type: true, slug: true } })
    const url = await savePreview(actor('author'), id, form({ title: 'Previewed', content: '<p onclick="x()">Typed <script>y()</script></p>' }))
    assert.equal(url, `/post/${slug}?preview=true`)
    assert.equal(await findPostPage(type, slug), null, 'the public sees no draft')
    const mine = await findPreviewPage(actor('author'), type, slug)
    assert.deepEqual([mine?.title, mine?.content], ['Previewed', '<p>Typed </p>'], 'the copy, cleaned as content is')
    const editors = await findPreviewPage(actor('editor'), type, slug)
    assert.deepEqual([editors?.title, editors?.content], ['Draft for preview', ''], "an editor sees the post, not the author's copy")
    assert.equal(await findPreviewPage(actor('contributor'), type, slug), null, "another's post: as if there were none")
    assert.equal(await findPreviewPage(actor('subscriber'), type, slug), null)
    assert.equal(await findPreviewPage(null, type, slug), null)
    await rejectsWith(savePreview(actor('contributor'), id, form()), 'rest_forbidden', 403)

    await updatePost(actor('author'), id, form({ title: 'Saved after', slug }))
    assert.equal((await findPreviewPage(actor('author'), type, slug))?.title, 'Saved after', 'a save after the copy makes it stale')
    await trashPost(actor('author'), id)
    assert.equal(await findPreviewPage(actor('author'), type, slug), null, 'nothing in the Trash')
    await deletePost(actor('editor'), id)
    assert.equal(await getDb().postPreview.count({ where: { postId: id } }), 0, 'copies go with their post')
  })
})

describe('sessions', () => {
  test('a session carries the version read with the password that was checked: a change meanwhile ends it', async () => {
    const { id, role } = actor('author')
    const checked = (await getDb().user.findUniqueOrThrow({ where: { id } })).sessionVersion
    // A new password committed while the old one was being hashed.
    await getDb().user.update({ where: { id }, data: { sessionVersion: 'set while the sign-in hashed' } })
    const user = { id: String(id), email: 'author@admin.test', name: '', role, sessionVersion: checked }
    const token = await getAuthOptions().callbacks!.jwt!({ token: {}, user, account: null })
    assert.equal(token.sv, checked)
    assert.equal(await findSessionUser(token), null, 'the session is over as soon as it starts')
    assert.notEqual(await findSessionUser({ ...token, sv: 'set while the sign-in hashed' }), null)
    assert.equal(await findSessionUser({ ...token, sv: '' }), null, 'an empty version, as a row written outside Places has, never holds')
  })
})

describe('users', () => {
  test('only administrators list, add and promote users', async () => {
    for (const role of ['editor', 'author', 'contributor', 'subscriber']) {
      await rejectsWith(listUsers(actor(role)), 'rest_forbidden', 403)
      await rejectsWith(changeUserRole(actor(role), actor(role).id, 'administrator'), 'rest_forbidden', 403)
      await rejectsWith(addUser(actor(role), { email: `x-${role}@admin.test`, password: 'long enough', role: 'administrator' }), 'rest_forbidden', 403)
    }
    await rejectsWith(addUser(actor('administrator'), { email: 'EDITOR@admin.test', password: 'long enough', role: 'editor' }), 'rest_invalid_param', 400)
  })

  test('the last administrator cannot be demoted, by themselves or anyone', async () => {
    const admin = actor('administrator')
    assert.equal((await listUsers(admin)).filter((u) => u.role === 'administrator').length, 1)
    const error = await rejectsWith(changeUserRole(admin, admin.id, 'editor'), 'last_administrator', 409)
    assert.deepEqual(Object.keys(error.data.params as object), ['role'])
    assert.equal((await getDb().user.findUniqueOrThrow({ where: { id: admin.id } })).role, 'administrator')

    // With a second administrator, either may step down, and then the other is the last.
    const second = actor('editor')
    await changeUserRole(admin, second.id, 'administrator')
    await changeUserRole(admin, admin.id, 'editor')
    await rejectsWith(changeUserRole({ id: second.id, role: 'administrator' }, second.id, 'subscriber'), 'last_administrator', 409)
    // Two demotions at once cannot both pass.
    await changeUserRole({ id: second.id, role: 'administrator' }, admin.id, 'administrator')
    const results = await Promise.allSettled([
      changeUserRole({ id: admin.id, role: 'administrator' }, second.id, 'editor'),
      changeUserRole({ id: second.id, role: 'administrator' }, admin.id, 'editor'),
    ])
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1)
    assert.equal(await getDb().user.count({ where: { role: 'administrator' } }), 1)
  })
})

describe('what the admin names', () => {
  test("the filters and the editor's picker name only the categories and types of posts the user may see", async () => {
    const db = getDb()
    const category = async (name: string, parentId: number | null = null) =>
      (await db.category.create({ data: { name, slug: name.toLowerCase().replace(/\W+/g, '-'), parentId }, select: { id: true } })).id
    const post = async (owner: string, title: string, type: string, status: string, categoryId: number) =>
      db.post.create({
        data: {
          title,
          slug: title.toLowerCase().replace(/\W+/g, '-'),
          type,
          status,
          publishedAt: new Date(),
          authorId: actor(owner).id,
          categories: { create: [{ categoryId }] },
        },
      })
    await post('editor', 'Secret deal', 'acquisition', 'draft', await category('Acquisition Target Q3'))
    await post('editor', 'Harbour walk', 'walk', 'publish', await category('Alfama', await category('Lisbon')))
    await post('contributor', 'My notes', 'diary', 'pending', await category('Contributor topic'))
    await category('Not used yet')

    const seen = async (role: string) => ({
      categories: (await listCategoryOptions(actor(role))).map((option) => option.path),
      types: await listPostTypes(actor(role)),
    })
    const subscriber = await seen('subscriber')
    assert.deepEqual(
      subscriber.categories.filter((path) => /Acquisition|Lisbon|Contributor|Not used/.test(path)),
      ['Lisbon', 'Lisbon > Alfama'],
      'a published post’s category, with its parent',
    )
    assert.ok(subscriber.types.includes('walk') && !subscriber.types.includes('acquisition') && !subscriber.types.includes('diary'))
    const contributor = await seen('contributor')
    for (const path of ['Lisbon > Alfama', 'Contributor topic', 'Not used yet']) assert.ok(contributor.categories.includes(path), path)
    assert.ok(!contributor.categories.includes('Acquisition Target Q3'))
    assert.ok(contributor.types.includes('diary') && !contributor.types.includes('acquisition'))
    const editor = await seen('editor')
    for (const path of ['Acquisition Target Q3', 'Contributor topic', 'Not used yet']) assert.ok(editor.categories.includes(path), path)
    assert.ok(editor.types.includes('acquisition') && editor.types.includes('diary'))

    // Nor can a contributor learn a hidden name by saving it on their own draft: it is as one that does not exist.
    const secret = (await db.category.findFirstOrThrow({ where: { name: 'Acquisition Target Q3' } })).id
    const draft = await createDraft(actor('contributor'), { title: 'Probe', type: 'post' })
    const refused = await rejectsWith(updatePost(actor('contributor'), draft, form({ categoryIds: [secret] })), 'rest_invalid_param', 400)
    assert.match(String((refused.data.params as Record<string, string>).categoryIds), /no longer exists/)
    await rejectsWith(updatePost(actor('contributor'), draft, form({ newCategories: ['Acquisition Target Q3'] })), 'rest_cannot_create', 403)
    const saved = await updatePost(actor('contributor'), draft, form({ newCategories: ['Lisbon > Alfama'] }))
    assert.equal(saved.post.categoryIds.length, 1, 'a category the contributor may see is picked by its path')
    assert.ok(!(await seen('contributor')).categories.includes('Acquisition Target Q3'))
  })
})
