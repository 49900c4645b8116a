import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { setTimeout } from 'node:timers/promises'
import { placesProcess } from '../support/cli'

// The bundle bin/places.mjs makes of the command line and keeps in node_modules/.cache/places (docs/cli.md). These
// tests remove it and change what it is made from, under every other command of the run: npm test runs this file
// alone, after the files run side by side (scripts/test.mts, SERIAL).

const dir = mkdtempSync(path.join(tmpdir(), 'places-bundle-'))
after(() => rmSync(dir, { recursive: true, force: true }))
/** `node bin/places.mjs --help`, which bundles the command line first unless a bundle of the same files is kept. */
function help() {
  const run = placesProcess({ ...process.env, DATABASE_URL: `file:${path.join(dir, 'bundle.db')}` }, ['--help'])
  assert.equal(run.status, 0, run.stderr)
  assert.match(run.stdout, /^Usage: places /m)
}
const cache = path.join('node_modules', '.cache', 'places')

test("the command's bundle is written anew when missing, and earlier bundles and dead writers' partial folders go", () => {
  mkdirSync(cache, { recursive: true })
  const bundles = () => readdirSync(cache).filter((name) => name.startsWith('cli-'))
  for (const name of bundles()) rmSync(path.join(cache, name), { recursive: true, force: true }) // whatever an earlier run left
  help()
  const [current, ...more] = bundles()
  assert.match(current ?? '', /^cli-[0-9a-f]{16}$/)
  assert.deepEqual(more, [])
  // The entry and a chunk for each command's modules, loaded as it runs.
  assert.ok(readdirSync(path.join(cache, current!)).length > 2)
  const earlier = 'cli-0123456789abcdef'
  const earlierOneFile = 'cli-0123456789abcdef.mjs' // as bundles were before they had chunks
  const deadWriters = 'cli-0123456789abcdef.4194305.a1B2c3' // no process has this id (above Linux's highest)
  const justWritten = 'cli-0123456789abcdef.4194306.d4E5f6' // nor this one, but written to a moment ago
  const runningWriters = `${current}.${process.pid}.g7H8i9` // this test's process: a command writing it now
  for (const name of [earlier, deadWriters, justWritten, runningWriters]) mkdirSync(path.join(cache, name))
  writeFileSync(path.join(cache, earlierOneFile), '')
  const hourAgo = new Date(Date.now() - 3_600_000)
  for (const name of [deadWriters, runningWriters]) utimesSync(path.join(cache, name), hourAgo, hourAgo)
  rmSync(path.join(cache, current!), { recursive: true })
  try {
    help()
    assert.deepEqual(bundles().sort(), [current, justWritten, runningWriters].sort())
  } finally {
    for (const name of [justWritten, runningWriters]) rmSync(path.join(cache, name), { recursive: true, force: true })
  }
})

test("the command's bundle is reused while the files it was made from are as they were, made anew when one changes", async () => {
  // This checkout's record (another checkout sharing node_modules keeps its own): named by the project's folder.
  const manifest = `inputs-${createHash('sha256').update(`${process.cwd()}${path.sep}`).digest('hex').slice(0, 16)}.json`
  const written = () => statSync(path.join(cache, manifest)).mtimeMs
  help()
  const before = written()
  help()
  assert.equal(written(), before, 'reused: nothing was written')
  // A change of any input (here only its times: the change time moves with them) makes the next command bundle again.
  const now = new Date()
  utimesSync(path.join('lib', 'slugs.ts'), now, now)
  await setTimeout(1100) // a file changed in the second before bundling is not trusted: it may have changed meanwhile
  help()
  assert.ok(written() > before, 'bundled anew, and its inputs recorded')
})
