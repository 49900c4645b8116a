import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { after, before, test } from 'node:test'
import { discardImport, previewImport, runImport, saveImportUpload } from '../../lib/admin/import'
import type { AdminActor } from '../../lib/admin/session'
import { disconnectDb, getDb } from '../../lib/db'
import { ApiError } from '../../lib/http/errors'
import { migrate } from '../../lib/migrate'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// The Import screen's steps against a real database and real files (lib/admin/import.ts): an upload kept for its
// user alone, summed up by an import rolled back, imported all or nothing, and who may do each. SQLite, then
// PostgreSQL in a child process.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let uploads: string
let editor: AdminActor
let administrator: AdminActor
let author: AdminActor

const bytes = (text: string | Buffer): AsyncIterable<Uint8Array> => Readable.from([typeof text === 'string' ? Buffer.from(text, 'latin1') : text])

const GERMAN = 'Titel;Breitengrad;Längengrad;Adresse\r\nKölner Dom;50,9413;6,9583;Domkloster 4, Köln\r\nRathaus;50,9381;6,9590;\r\n'
const COLUMNS = { title: 'Titel', latitude: 'Breitengrad', longitude: 'Längengrad', address: 'Adresse' }
const posts = () => getDb().post.count()
const refusedWith = (code: string) => (error: unknown) => error instanceof ApiError && error.code === code

before(async () => {
  database = await createTestDatabase(kind)
  uploads = mkdtempSync(path.join(tmpdir(), 'places-import-screen-'))
  process.env.DATABASE_URL = database.url
  process.env.UPLOADS_DIR = uploads
  await migrate()
  const user = async (email: string, role: string): Promise<AdminActor> =>
    getDb().user.create({ data: { email, role, name: role }, select: { id: true, role: true, email: true, name: true } })
  editor = await user('editor@import.test', 'editor')
  administrator = await user('admin@import.test', 'administrator')
  author = await user('author@import.test', 'author')
})

after(async () => {
  await disconnectDb()
  await database.drop()
  rmSync(uploads, { recursive: true, force: true })
})

test('a CSV file: refused with its problems until its columns are named, then imported by its uploader, and removed', async () => {
  const token = await saveImportUpload(editor, bytes(GERMAN))
  const unmapped = await previewImport(editor, { token, name: 'orte.csv' })
  assert.equal(unmapped.kind, 'places')
  assert.equal(unmapped.kind === 'places' && unmapped.posts, 0)
  assert.match(
    unmapped.kind === 'places' ? unmapped.problems.join('\n') : '',
    /line 1: no title column in the header \(Titel, Breitengrad, Längengrad, Adresse\)/,
  )
  assert.deepEqual(unmapped.kind === 'places' && unmapped.layout, {
    header: ['Titel', 'Breitengrad', 'Längengrad', 'Adresse'],
    delimiter: ';',
    decimalComma: true,
    columns: {},
  })

  const request = { token, name: 'orte.csv', csv: { columns: COLUMNS } }
  const mapped = await previewImport(editor, request)
  assert.deepEqual(mapped.kind === 'places' && [mapped.format, mapped.item, mapped.posts, mapped.problems], ['CSV', 'row', 2, []])
  assert.equal(await posts(), 0, 'a summary writes nothing')
  await assert.rejects(previewImport(administrator, request), refusedWith('rest_invalid_param'), "another user's upload is not theirs to read")

  const result = await runImport(editor, request)
  assert.equal(result.kind === 'places' && result.ids.length, 2)
  const dom = await getDb().post.findFirstOrThrow({
    where: { title: 'Kölner Dom' },
    select: { latitude: true, longitude: true, address: true, authorId: true },
  })
  assert.deepEqual(dom, { latitude: 50.9413, longitude: 6.9583, address: 'Domkloster 4, Köln', authorId: editor.id })
  await assert.rejects(previewImport(editor, request), /upload the file again/, 'the upload is gone')
  assert.deepEqual(
    readdirSync(path.join(uploads, 'incoming')).filter((name) => name.startsWith('import-')),
    [],
  )
})

test("a refused file's problems name it as its user does; a token that is no upload, or a request out of shape, is refused", async () => {
  const token = await saveImportUpload(editor, bytes('<html>no map</html>'))
  const preview = await previewImport(editor, { token, name: 'notes.xml' })
  assert.equal(preview.kind === 'places' && preview.format, 'unknown')
  const problems = preview.kind === 'places' ? preview.problems.join('\n') : ''
  assert.match(problems, /notes\.xml/)
  assert.doesNotMatch(problems, new RegExp(uploads.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  await assert.rejects(runImport(editor, { token, name: 'notes.xml' }), (error) => error instanceof ApiError && !error.message.includes(uploads))
  await discardImport(editor, { token, name: 'notes.xml' })
  for (const bad of [
    { token: '../../etc/passwd', name: 'x' },
    { token, name: 'x', csv: { delimiter: ':' } },
    { token, name: 'x', extra: 1 },
  ]) {
    await assert.rejects(previewImport(editor, bad as never), refusedWith('rest_invalid_param'), JSON.stringify(bad))
  }
})

test('who may: an author nothing; an editor sums up a WordPress export but may not import it, as it adds users; an administrator does', async () => {
  await assert.rejects(saveImportUpload(author, bytes(GERMAN)), refusedWith('rest_forbidden'))
  await assert.rejects(saveImportUpload(null, bytes(GERMAN)), refusedWith('rest_forbidden'))
  const wxr = readFileSync(path.join('test', 'fixtures', 'wxr', 'site.xml'))
  const token = await saveImportUpload(editor, bytes(wxr))
  await assert.rejects(previewImport(author, { token, name: 'site.xml' }), refusedWith('rest_forbidden'))
  const before = await posts()
  const preview = await previewImport(editor, { token, name: 'site.xml' })
  assert.equal(preview.kind, 'wxr')
  if (preview.kind !== 'wxr') return
  assert.equal(preview.mayAddUsers, false)
  assert.equal(preview.summary.posts, 12)
  assert.ok(preview.summary.photosWithoutFiles > 0, 'its photos need their files')
  assert.equal(await posts(), before, 'the summary was rolled back')
  await assert.rejects(runImport(editor, { token, name: 'site.xml' }), refusedWith('rest_forbidden'))
  assert.equal(await posts(), before)

  const own = await saveImportUpload(administrator, bytes(wxr))
  const result = await runImport(administrator, { token: own, name: 'site.xml' })
  assert.equal(result.kind === 'wxr' && result.summary.posts, 12)
  assert.equal(await posts(), before + 12)
  assert.equal(existsSync(path.join(uploads, 'incoming', `import-${administrator.id}-${own}`)), false)
})

test('one upload a user: a new one replaces the last; a file is imported once, whoever asks twice at the same time', async () => {
  const first = await saveImportUpload(editor, bytes(GERMAN))
  const second = await saveImportUpload(editor, bytes(GERMAN))
  await assert.rejects(previewImport(editor, { token: first, name: 'orte.csv' }), /upload the file again/, 'the first upload is gone')
  const request = { token: second, name: 'orte.csv', csv: { columns: COLUMNS } }
  const before = await posts()
  const runs = await Promise.allSettled([runImport(editor, request), runImport(editor, request)])
  assert.deepEqual(runs.map((run) => run.status).sort(), ['fulfilled', 'rejected'])
  assert.equal(await posts(), before + 2, 'its two rows, once')
})
