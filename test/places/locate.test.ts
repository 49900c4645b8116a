import assert from 'node:assert/strict'
import { createReadStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { createDraft, trashPost } from '../../lib/admin/posts'
import { addUser } from '../../lib/admin/users'
import { ROLES, type Actor } from '../../lib/auth/capabilities'
import { disconnectDb, getDb, readDataVersion, transaction } from '../../lib/db'
import { ApiError } from '../../lib/http/errors'
import { storeAttachment } from '../../lib/media/storage'
import { migrate } from '../../lib/migrate'
import { importLocationsFromMedia, writeLocation } from '../../lib/places/locate'
import { PublicLocationRule } from '../../lib/places/visibility'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// lib/places/locate.ts against a real database: the admin's bulk "Import locations from media" changes exactly the
// posts canEditPost lets the user edit, and writeLocation stores 7 decimals with the search text. lib/ reads its
// configuration once per process, so this file runs on SQLite and again in a child process for PostgreSQL.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
const uploads = mkdtempSync(path.join(tmpdir(), 'places-locate-uploads-'))
const users = new Map<string, Actor>()
const actor = (role: string): Actor => users.get(role)!
/** gox_gps.jpg's GPS at 7 decimals (test/fixtures/exif/truth.json) */
const GOX = { latitude: 26.5866667, longitude: -80.0536111 }

async function draftWithPhoto(role: string, title: string): Promise<number> {
  const id = await createDraft(actor(role), { title, type: 'post' })
  const photo = path.join('test', 'fixtures', 'exif', 'gox_gps.jpg')
  await storeAttachment({ postId: id, filename: photo, body: createReadStream(photo) })
  return id
}

const locationOf = (id: number) =>
  getDb().post.findUniqueOrThrow({ where: { id }, select: { latitude: true, longitude: true, address: true, searchText: true } })

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  process.env.UPLOADS_DIR = uploads
  await migrate()
  for (const role of ROLES) {
    const id = await addUser({ id: 0, role: 'administrator' }, { email: `${role}@locate.test`, password: 'long enough', role })
    users.set(role, { id, role })
  }
})

after(async () => {
  await disconnectDb()
  await database.drop()
  rmSync(uploads, { recursive: true, force: true })
})

test('writeLocation stores 7 decimals and keeps the search text and what the public sees with the address', async () => {
  const id = await createDraft(actor('editor'), { title: 'Precise', type: 'post' })
  const location = { latitude: 48.858370123456789, longitude: 2.294481234567891, address: 'Île de la Cité' }
  await transaction(async (tx) => writeLocation(tx, await PublicLocationRule.load(tx), { id, title: 'Precise', locationPrecision: 'exact' }, location))
  assert.deepEqual(await locationOf(id), { latitude: 48.8583701, longitude: 2.2944812, address: 'Île de la Cité', searchText: 'precise\nile de la cite' })
  const shown = await getDb().post.findUniqueOrThrow({ where: { id }, select: { publicLatitude: true, publicLongitude: true, publicAddress: true } })
  assert.deepEqual(shown, { publicLatitude: 48.8583701, publicLongitude: 2.2944812, publicAddress: 'Île de la Cité' })
  // At the city level the public sees the town, not the point nor the typed address.
  await transaction(async (tx) => writeLocation(tx, await PublicLocationRule.load(tx), { id, title: 'Precise', locationPrecision: 'city' }, location))
  const city = await getDb().post.findUniqueOrThrow({ where: { id }, select: { publicAddress: true } })
  assert.equal(city.publicAddress, 'Paris, Île-de-France, France')
})

test("the bulk action changes only the posts the user may edit; another's, a missing one and the Trash are skipped and left", async () => {
  const own = await draftWithPhoto('contributor', 'Contributor own')
  const others = await draftWithPhoto('author', "Author's draft")
  const trashed = await draftWithPhoto('contributor', 'Contributor trashed')
  await trashPost(actor('contributor'), trashed)
  const report = await importLocationsFromMedia(actor('contributor'), [own, others, trashed, 2_000_000_000])
  assert.deepEqual(
    report.posts.map((post) => [post.id, post.title, post.outcome, post.reason]),
    [
      [own, 'Contributor own', 'set', undefined],
      [others, null, 'skipped', 'not_editable'],
      [trashed, 'Contributor trashed', 'skipped', 'in_trash'],
      [2_000_000_000, null, 'skipped', 'not_editable'],
    ],
    "nothing of another's post is told, not even whether it exists",
  )
  assert.deepEqual(report.summary.skippedBy, { no_photo_gps: 0, has_location: 0, in_trash: 1, not_editable: 2 })
  assert.deepEqual(await locationOf(own), {
    ...GOX,
    address: 'Lantana, Florida, United States of America',
    searchText: 'contributor own\nlantana, florida, united states of america',
  })
  for (const id of [others, trashed]) {
    const { latitude, longitude, address } = await locationOf(id)
    assert.deepEqual({ latitude, longitude, address }, { latitude: null, longitude: null, address: '' })
  }

  // An editor may edit the author's draft; a second run finds it at its photo's point already.
  const [first] = (await importLocationsFromMedia(actor('editor'), [others])).posts
  assert.equal(first?.outcome, 'set')
  const [again] = (await importLocationsFromMedia(actor('editor'), [others])).posts
  assert.equal(again?.outcome, 'unchanged')
})

test('the bulk action writes nothing it need not: every cache of the public answers stays valid', async () => {
  const others = await draftWithPhoto('author', 'Not the contributor’s')
  await importLocationsFromMedia(actor('editor'), [others])
  const version = await readDataVersion()
  // A subscriber may write no post: refused before any work.
  await assert.rejects(importLocationsFromMedia(actor('subscriber'), [others]), (error: unknown) => error instanceof ApiError && error.status === 403)
  // A contributor naming posts they may not edit, and an editor whose posts are where their photos say already.
  const report = await importLocationsFromMedia(actor('contributor'), [others, 2_000_000_000])
  assert.deepEqual(report.summary.skippedBy.not_editable, 2)
  assert.equal((await importLocationsFromMedia(actor('editor'), [others])).summary.unchanged, 1)
  assert.equal(await readDataVersion(), version, 'no write, so the data version (every ETag and cached answer) is as it was')
})
