import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import autocannon from 'autocannon'
import { runPlaces } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { hasOpen } from '../support/processes'
import { startServer, type RunningServer } from '../support/server'
import { queryRows, writeLockHeld } from '../support/sql'
import { waitFor } from '../support/wait'

// Mixed traffic at 64 connections while imports and uploads write, on each database: no request may fail and
// every write must be there afterwards. Then crashes: an import or an upload killed half-way leaves nothing.
// npm test runs 10 seconds of load; `LOAD_SECONDS=60 npm run load` the full minute.

const SECONDS = Number(process.env.LOAD_SECONDS ?? 10)

/** n published places with public geodata, in a small category tree. */
function writePlaces(file: string, n: number): void {
  const features = Array.from({ length: n }, (_, i) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [((i * 7.31) % 360) - 180, ((i * 3.17) % 170) - 85] },
    properties: { title: `Place ${i}`, date: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(), categories: [`Region ${i % 5} > Area ${i % 25}`] },
  }))
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }))
}
const PHOTO = readFileSync(path.join('test', 'fixtures', 'exif', 'gox_gps.jpg'))

for (const kind of databaseKinds) {
  describe(`load and crashes on ${kind}`, () => {
    let db: TestDatabase
    let dir: string
    let env: NodeJS.ProcessEnv
    let server: RunningServer
    let authorization: string
    let photoPost: string
    const places = (...args: string[]) => runPlaces(env, ...args)
    const countPosts = async () => (JSON.parse(await places('export', '--all-statuses')) as { features: unknown[] }).features.length
    const geojson = (features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features })

    before(async () => {
      db = await createTestDatabase(kind)
      dir = mkdtempSync(path.join(tmpdir(), 'places-load-'))
      env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads'), INCOMING_STALE_SECONDS: '0' }
      await places('user', 'create', '--email', 'load@example.org', '--password', 'long enough', '--role', 'administrator')
      authorization = `Basic ${Buffer.from(`load@example.org:${(await places('app-password', 'create', '--user', 'load@example.org')).split('\n').at(-1)}`).toString('base64')}`
      writePlaces(path.join(dir, 'places.geojson'), 2000)
      await places('import', path.join(dir, 'places.geojson'))
      writeFileSync(
        path.join(dir, 'photo-post.geojson'),
        geojson([{ type: 'Feature', geometry: null, properties: { title: 'Photos under load', status: 'draft' } }]),
      )
      photoPost = await places('import', path.join(dir, 'photo-post.geojson'))
      await places('media', 'import', '--post', photoPost, path.join('test', 'fixtures', 'exif', 'gox_gps.jpg'))
      server = await startServer({ DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR!, LOG_REQUESTS: 'false' })
    })
    after(async () => {
      await server.stop()
      await db.drop()
      rmSync(dir, { recursive: true, force: true })
    })

    test(
      `${SECONDS} s of mixed reads at 64 connections, with imports and uploads going on: nothing fails, nothing is lost`,
      { timeout: (SECONDS + 120) * 1000 },
      async () => {
        const ids = (
          JSON.parse(await (await fetch(`${server.url}/places/v1/geojson?posts_per_page=100`)).text()) as { features: { properties: { id: number } }[] }
        ).features.map((f) => f.properties.id)
        const reads = [
          '/places/v1/geojson',
          '/places/v1/geojson?posts_per_page=500',
          '/places/v1/geojson?category=1',
          ...ids.slice(0, 20).map((id) => `/places/v1/geojson/${id}`),
          '/ogc/collections/post/items?limit=50',
          '/healthz',
        ].map((p) => ({ method: 'GET' as const, path: p }))
        reads.push({ method: 'GET', path: `/places/v1/attachment-exif-gps/${photoPost}`, headers: { authorization } } as never)

        let writing = true
        const imported: string[] = []
        const uploaded: number[] = []
        const failures: string[] = []
        const importer = (async () => {
          for (let i = 0; writing; i++) {
            const file = path.join(dir, `write-${i}.geojson`)
            writeFileSync(
              file,
              geojson([
                {
                  type: 'Feature',
                  geometry: { type: 'Point', coordinates: [10 + i / 1000, 50] },
                  properties: { title: `Written under load ${i}`, categories: ['Load > Test'] },
                },
              ]),
            )
            const run = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
              const child = spawn(process.execPath, ['bin/places.mjs', 'import', file], { env })
              let out = ''
              let err = ''
              child.stdout.on('data', (c) => (out += c))
              child.stderr.on('data', (c) => (err += c))
              child.on('close', (code) => resolve({ code, out, err }))
            })
            if (run.code === 0) imported.push(`Written under load ${i}`)
            else failures.push(`import ${i}: ${run.err}`)
            // Each command line is a second of CPU on a 2-core machine: a steady trickle of imports, not a flood.
            await new Promise((resolve) => setTimeout(resolve, 1000))
          }
        })()
        const uploader = (async () => {
          for (let i = 0; writing; i++) {
            const response = await fetch(`${server.url}/places/v1/media?post=${photoPost}`, {
              method: 'POST',
              body: PHOTO,
              headers: { authorization, 'Content-Type': 'image/jpeg', 'Content-Disposition': `attachment; filename="load-${i}.jpg"` },
            })
            if (response.status === 201) uploaded.push(((await response.json()) as { id: number }).id)
            else failures.push(`upload ${i}: ${response.status} ${await response.text()}`)
          }
        })()

        const connectionErrors: Record<string, number> = {}
        const result = await new Promise<autocannon.Result>((resolve, reject) => {
          // What is asserted is that nothing fails and nothing is lost, not how fast: latency is the bench's to measure
          // (BENCHMARKS.md). So a slow answer on a starved 2-core machine, which runs this client, the server and the
          // imports at once, is waited for (autocannon's own limit is 10 s) rather than counted as an error.
          const load = autocannon({ url: server.url, connections: 64, duration: SECONDS, timeout: 120, requests: reads }, (error, done) =>
            error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done),
          )
          load.on('reqError', (error: NodeJS.ErrnoException) => {
            connectionErrors[error.code ?? error.message] = (connectionErrors[error.code ?? error.message] ?? 0) + 1
          })
        })
        writing = false
        await Promise.all([importer, uploader])

        assert.deepEqual(connectionErrors, {}, 'connection errors')
        assert.equal(result.errors, 0, 'connection errors')
        assert.equal(result.timeouts, 0, 'timeouts')
        assert.equal(result.non2xx, 0, 'answers that were not 2xx')
        assert.ok(result.requests.total > 0, 'requests were answered')
        assert.deepEqual(failures, [])
        // Writes went on during the load. An upload makes eight files of the photo (lib/media/renditions.ts): at 64
        // connections on two cores, one or two of them finish in the 10 s.
        assert.ok(imported.length >= 2 && uploaded.length >= 1, `writes: ${imported.length} imports, ${uploaded.length} uploads`)
        const titles = new Set(
          (JSON.parse(await places('export')) as { features: { properties: { title: string } }[] }).features.map((f) => f.properties.title),
        )
        for (const title of imported) assert.ok(titles.has(title), `${title} is there`)
        const gps = await fetch(`${server.url}/places/v1/attachment-exif-gps/${photoPost}`, { headers: { authorization } })
        assert.equal(gps.status, 200)
        console.log(
          `load on ${kind}: ${result.requests.total} reads (${Math.round(result.requests.average)}/s, p99 ${result.latency.p99} ms), ${imported.length} imports, ${uploaded.length} uploads`,
        )
      },
    )

    test('an import killed half-way imports nothing', { timeout: 120_000 }, async () => {
      const before = await countPosts()
      writePlaces(path.join(dir, 'big.geojson'), 30_000)
      const file = path.join(dir, 'big.geojson')
      const child = spawn(process.execPath, ['bin/places.mjs', 'import', file], { env, stdio: 'ignore' })
      // Half-way: writing, in its transaction. That is when it holds the write lock and reads the file (a second
      // time: the first is the check, before the transaction; the lock taken before that is the migration's).
      await waitFor(
        'the import to be writing',
        async () => {
          assert.equal(child.exitCode, null, 'the import is still running')
          return hasOpen(child.pid!, file) && (await writeLockHeld(db.url, 'posts')) ? true : undefined
        },
        60_000,
      )
      assert.equal(child.exitCode, null, 'the import is still running when it is killed')
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('exit', resolve))
      assert.equal(await countPosts(), before)
      assert.equal((await fetch(`${server.url}/healthz`)).status, 200)
    })

    test('a server killed during an upload restarts with no partial file and no row for it', { timeout: 120_000 }, async () => {
      const attachmentsBefore = (await fetch(`${server.url}/places/v1/attachment-exif-gps/${photoPost}`, { headers: { authorization } })).status
      const rowsBefore = await queryRows<{ id: number; file_path: string }>(db.url, 'SELECT id, file_path FROM attachments ORDER BY id')
      const request = fetch(`${server.url}/places/v1/media?post=${photoPost}`, {
        method: 'POST',
        headers: { authorization, 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment; filename="cut.jpg"' },
        body: new ReadableStream({
          async start(controller) {
            controller.enqueue(PHOTO.subarray(0, 4096))
            // The rest of the file never comes: the server is killed while it waits for it.
            await new Promise<never>(() => {})
          },
        }),
        duplex: 'half',
      } as RequestInit).catch(() => 'cut')
      const incoming = path.join(dir, 'uploads', 'incoming')
      await waitFor('the upload to be written to incoming/', () => (existsSync(incoming) && readdirSync(incoming).length > 0 ? true : undefined))
      assert.equal(readdirSync(incoming).length, 1, 'the upload is being written')
      server.process.kill('SIGKILL')
      assert.equal(await request, 'cut')
      server = await startServer({ DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR!, LOG_REQUESTS: 'false', INCOMING_STALE_SECONDS: '0' })
      assert.deepEqual(readdirSync(incoming), [], 'the partial file is gone')
      const originals = readdirSync(path.join(dir, 'uploads', 'originals'), { recursive: true }).map(String)
      assert.ok(!originals.some((f) => f.includes('cut')), 'no stored file for it')
      assert.equal((await fetch(`${server.url}/places/v1/attachment-exif-gps/${photoPost}`, { headers: { authorization } })).status, attachmentsBefore)
      const rowsAfter = await queryRows<{ id: number; file_path: string }>(db.url, 'SELECT id, file_path FROM attachments ORDER BY id')
      assert.deepEqual(rowsAfter, rowsBefore, 'no attachment row was added')
      assert.ok(!rowsAfter.some((row) => row.file_path.includes('cut')), 'no row names the cut upload')
    })
  })
}
