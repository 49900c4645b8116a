import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { toValues, valuesToSend } from '../../app/admin/posts/[id]/_components/post-editor-state'
import { createDraft, findEditablePost, parsePostForm, updatePost } from '../../lib/admin/posts'
import { OPERATOR } from '../../lib/auth/callers'
import { createDb, disconnectDb, getDb, readDataVersion, transaction } from '../../lib/db'
import { ApiError } from '../../lib/http/errors'
import { migrate } from '../../lib/migrate'
import { feedAnswer } from '../../lib/places/feed'
import { getOEmbed } from '../../lib/places/oembed'
import { DEFAULT_SETTINGS, fillSiteSettings, getSiteSettings, updateSiteSettings } from '../../lib/site'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// The site's settings against a real database (lib/site.ts): who may change them, what is refused, that a change made
// elsewhere (another instance) is read at once, that an import fills only what was never set, and that the feeds and
// oEmbed name the site by them. Runs on SQLite, and again in a child process for PostgreSQL when TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let administrator: { id: number; role: string }
let editor: { id: number; role: string }

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  process.env.SITE_URL = 'http://places.test'
  await migrate()
  const db = getDb()
  administrator = await db.user.create({ data: { email: 'admin@example.org', role: 'administrator' }, select: { id: true, role: true } })
  editor = await db.user.create({ data: { email: 'editor@example.org', role: 'editor' }, select: { id: true, role: true } })
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

/** Whether `promise` is refused with `code`, naming exactly `params` when given. */
async function refused(promise: Promise<unknown>, code: string, params?: string[]) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ApiError)
    assert.equal(error.code, code)
    if (params) assert.deepEqual(Object.keys(error.data.params as object).sort(), params)
    return true
  })
}

test('a new site has the defaults', async () => {
  assert.deepEqual(await getSiteSettings(), DEFAULT_SETTINGS)
  assert.deepEqual(await getDb().siteSettings.findUniqueOrThrow({ where: { id: 1 } }), { id: 1, title: null, tagline: null, language: null, timezone: null })
})

test('administrators change them, in the canonical spelling; an editor is refused and nothing changes', async () => {
  await refused(updateSiteSettings(editor, { title: 'Mine now' }), 'rest_forbidden')
  const saved = await updateSiteSettings(administrator, { title: '  Tom & Jerry’s <maps>  ', language: 'de_DE', timezone: 'europe/berlin' })
  assert.deepEqual(saved, { title: 'Tom & Jerry’s <maps>', tagline: '', language: 'de-DE', timezone: 'Europe/Berlin' })
  assert.deepEqual(await getSiteSettings(), saved)
  // Those not given stay as they are.
  assert.deepEqual(await updateSiteSettings(OPERATOR, { tagline: 'Walks with a camera' }), { ...saved, tagline: 'Walks with a camera' })
})

test('a bad value is refused naming each bad field, and none of the values given is saved', async () => {
  const before = await getSiteSettings()
  await refused(updateSiteSettings(administrator, { title: 'Fine', language: 'english', timezone: '+01:00' }), 'rest_invalid_param', ['language', 'timezone'])
  await refused(updateSiteSettings(administrator, { title: ' ', tagline: 'x'.repeat(501) }), 'rest_invalid_param', ['tagline', 'title'])
  await refused(updateSiteSettings(administrator, { timezone: 'Mars/Olympus_Mons' }), 'rest_invalid_param', ['timezone'])
  await refused(updateSiteSettings(administrator, { title: 'Two\nlines', tagline: 'NUL \u0000 here' }), 'rest_invalid_param', ['tagline', 'title'])
  await refused(updateSiteSettings(administrator, { colour: 'red' }), 'rest_invalid_param')
  assert.deepEqual(await getSiteSettings(), before)
})

test('a change made through another connection (another instance) is read at once; the same values are the same object', async () => {
  const other = createDb(database.url)
  try {
    await other.siteSettings.update({ where: { id: 1 }, data: { title: 'Renamed elsewhere' } })
    assert.equal((await getSiteSettings()).title, 'Renamed elsewhere')
    const first = await getSiteSettings()
    const version = await readDataVersion()
    // A write that changes no setting bumps the version: the settings are read again, and are the same object.
    await getDb().category.create({ data: { name: 'Walks', slug: 'walks' } })
    assert.ok((await readDataVersion()) > version)
    assert.equal(await getSiteSettings(), first)
    // A zone this runtime does not know (another runtime's, or typed into the database) is shown as UTC, not a crash.
    await other.siteSettings.update({ where: { id: 1 }, data: { timezone: 'Mars/Olympus_Mons' } })
    assert.equal((await getSiteSettings()).timezone, 'UTC')
    await other.siteSettings.update({ where: { id: 1 }, data: { timezone: null } })
  } finally {
    await other.$disconnect()
  }
})

test("an import fills only the settings never set, with valid values; they are the feeds' and oEmbed's", async () => {
  await getDb().siteSettings.update({ where: { id: 1 }, data: { title: null, tagline: null, language: null, timezone: null } })
  await updateSiteSettings(OPERATOR, { tagline: 'Kept' })
  const filled = await transaction((tx) => fillSiteSettings(tx, { title: 'Travels & more', tagline: 'Places we went', language: 'not a language!' }))
  assert.deepEqual(filled, ['title'])
  assert.deepEqual(await getSiteSettings(), { ...DEFAULT_SETTINGS, title: 'Travels & more', tagline: 'Kept' })

  await updateSiteSettings(OPERATOR, { language: 'pt-BR' })
  const rss = Buffer.from(await (await feedAnswer('rss', null)).body()).toString()
  assert.match(rss, /<title>Travels &#38; more<\/title>/)
  assert.match(rss, /<description>Kept<\/description>/)
  assert.match(rss, /<language>pt-BR<\/language>/)
  const atom = Buffer.from(await (await feedAnswer('atom', null)).body()).toString()
  assert.match(atom, /xml:lang="pt-BR"/)
  const oembed = await getOEmbed({ url: 'http://places.test/', maxwidth: null, maxheight: null, format: 'json' })
  assert.equal(oembed.provider_name, 'Travels & more')
  assert.equal(oembed.author_name, 'Travels & more')
})

test("the editor shows and takes dates as the site's wall clock; they are stored as the instant", async () => {
  await updateSiteSettings(OPERATOR, { timezone: 'Asia/Tokyo' })
  const id = await createDraft(administrator, { title: 'Shibuya crossing', type: 'post' })
  const { post } = (await findEditablePost(administrator, id))!
  const form = toValues(post)
  const saved = await updatePost(administrator, id, await parsePostForm({ ...form, date: '2026-12-06T09:00:00' }))
  assert.equal(saved.timezone, 'Asia/Tokyo')
  assert.equal(saved.post.date, '2026-12-06T09:00:00')
  const { publishedAt } = await getDb().post.findUniqueOrThrow({ where: { id }, select: { publishedAt: true } })
  assert.equal(publishedAt.toISOString(), '2026-12-06T00:00:00.000Z')
  // A date with its own zone is that instant, whatever the site's.
  assert.equal((await parsePostForm({ ...form, date: '2026-12-06T09:00:00Z' })).date.toISOString(), '2026-12-06T09:00:00.000Z')

  await updateSiteSettings(OPERATOR, { timezone: 'America/New_York' })
  assert.equal((await findEditablePost(administrator, id))!.post.date, '2026-12-05T19:00:00', 'the same instant, in the new zone')
  await refused(parsePostForm({ ...form, date: '2026-02-30T09:00:00' }), 'rest_invalid_param', ['date'])
})

test('a date left as it was keeps its instant, even in the hour a clock change repeats', async () => {
  await updateSiteSettings(OPERATOR, { timezone: 'Europe/Berlin' })
  const id = await createDraft(administrator, { title: 'Last night of summer time', type: 'post' })
  // 02:30 on 25 October 2026 happens twice in Berlin: first in summer time (00:30Z), then in winter time (01:30Z).
  await getDb().post.update({ where: { id }, data: { publishedAt: new Date('2026-10-25T00:30:00Z') } })
  const { post } = (await findEditablePost(administrator, id))!
  assert.equal(post.date, '2026-10-25T02:30:00')
  const form = toValues(post)
  await updatePost(administrator, id, await parsePostForm(valuesToSend(form, post)))
  const { publishedAt } = await getDb().post.findUniqueOrThrow({ where: { id }, select: { publishedAt: true } })
  assert.equal(publishedAt.toISOString(), '2026-10-25T00:30:00.000Z')
  // Typed anew, it is the wall clock's instant.
  assert.equal((await parsePostForm(valuesToSend({ ...form, date: '2026-10-26T02:30:00' }, post))).date.toISOString(), '2026-10-26T01:30:00.000Z')
})
