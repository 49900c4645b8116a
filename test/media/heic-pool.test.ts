import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import ExifReader from 'exifreader'
import sharp from 'sharp'
import { readGps } from '../../lib/media/exif-gps'
import { errorResponse } from '../../lib/http/route'
import { closeHeicPool, decodeHeic, HEIC_DECODE_TIME_LIMIT_MS, HeicDecodeError, HeicDecodeTimeout, heicWorkerIds } from '../../lib/media/heic-pool'
import { createRenditions, removeRenditionFiles, UndecodableImage } from '../../lib/media/renditions'
import { heicTimeLimitRefusal } from '../../lib/media/storage'
import { mediaStore } from '../../lib/media/store'

// HEIC photos are decoded in worker threads (lib/media/heic-pool.ts), so that the server's event loop runs on
// meanwhile: real iPhone files of the corpus, the real decoder, the sizes read back with sharp and ExifReader.

const corpus = path.join('test', 'fixtures', 'exif')
const IPHONE = path.join(corpus, 'mei_Issue 263 dotnet.heic') // 3024x4032 once turned, with GPS
const SMALL = path.join(corpus, 'epy_spring_1440x960.heic')
/** A 12 MP photo of the demo: its decode takes long enough to be cut off by a time limit of a few milliseconds. */
const DEMO = path.join('lib', 'demo', 'photos', 'jeronimos-lisbon.heic')
const dir = mkdtempSync(path.join(tmpdir(), 'places-heic-'))
// Read when the first size is written (lib/config.ts reads the environment once, on first use).
process.env.UPLOADS_DIR = path.join(dir, 'uploads')

after(async () => {
  await closeHeicPool()
  rmSync(dir, { recursive: true, force: true })
})

/** How many turns the event loop makes until `work` settles: none while something holds it. */
async function loopTurnsDuring<T>(work: Promise<T>): Promise<{ result: T; turns: number }> {
  let settled = false
  const done = work.finally(() => (settled = true))
  let turns = 0
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve))
    turns++
  }
  return { result: await done, turns }
}

describe('HEIC decoding in a worker thread', () => {
  test('an iPhone photo decodes upright to whole RGBA pixels while the event loop goes on turning', async () => {
    const { result, turns } = await loopTurnsDuring(decodeHeic(readFileSync(IPHONE)))
    assert.deepEqual([result.width, result.height], [3024, 4032], 'turned by its rotation (stored 4032x3024)')
    assert.equal(result.data.byteLength, 3024 * 4032 * 4)
    // On the main thread libheif ran for seconds in one go: the loop could not turn until it ended.
    assert.ok(turns > 100, `the event loop turned ${turns} times during the decode`)
  })

  test('files decoded at once are each decoded, in their own right, and the caller keeps its bytes', async () => {
    const iphone = readFileSync(IPHONE)
    const small = readFileSync(SMALL)
    const decoded = await Promise.all([decodeHeic(small), decodeHeic(iphone), decodeHeic(small)])
    assert.deepEqual(
      decoded.map((d) => `${d.width}x${d.height}`),
      ['1440x960', '3024x4032', '1440x960'],
    )
    assert.equal(iphone.byteLength, readFileSync(IPHONE).byteLength, 'the bytes handed over were a copy')
  })

  test('a file that is not HEIC fails with libheif’s words, and the next one decodes', async () => {
    await assert.rejects(decodeHeic(Buffer.from('not an image, whatever its name says')), (error: unknown) => {
      assert.ok(error instanceof HeicDecodeError)
      assert.match(String(error.reason), /not a HEIC image/)
      return true
    })
    assert.equal((await decodeHeic(readFileSync(SMALL))).width, 1440)
  })

  test('closing the pool fails what waits; a decode afterwards starts a new worker', async () => {
    const waiting = assert.rejects(decodeHeic(readFileSync(SMALL)), /stopped/)
    await closeHeicPool()
    await waiting
    assert.equal((await decodeHeic(readFileSync(SMALL))).height, 960)
  })

  test('a decode past its time limit fails, its worker is replaced, and the other files decode', async () => {
    await decodeHeic(readFileSync(SMALL))
    const before = heicWorkerIds()
    const timedOut = (error: unknown) => error instanceof HeicDecodeTimeout && error.timeLimitMs === 5
    await assert.rejects(decodeHeic(readFileSync(DEMO), { timeLimitMs: 5 }), timedOut)
    const after = heicWorkerIds()
    assert.equal(after.length, before.length, 'the pool keeps its size')
    assert.equal(before.filter((id) => !after.includes(id)).length, 1, 'the worker that ran out of time was replaced')
    // Decoded at the same time: on two cores (one worker) the second waits behind the first and gets the new worker.
    const [cut, other] = await Promise.allSettled([decodeHeic(readFileSync(DEMO), { timeLimitMs: 5 }), decodeHeic(readFileSync(SMALL))])
    assert.ok(cut.status === 'rejected' && timedOut(cut.reason), String(cut.status === 'rejected' ? cut.reason : cut.status))
    assert.equal(other.status === 'fulfilled' && other.value.width, 1440, 'a file decoded meanwhile is not affected')
    const whole = await decodeHeic(readFileSync(DEMO))
    assert.deepEqual([whole.width, whole.height], [3024, 4032], 'the same photo decodes within the default limit')
  })

  test('an upload whose HEIC ran out of time is a 422 naming the decoder’s time limit', async () => {
    const response = errorResponse(heicTimeLimitRefusal(new HeicDecodeTimeout(HEIC_DECODE_TIME_LIMIT_MS)))
    assert.equal(response.status, 422)
    const body = (await response.json()) as { code: string; message: string; data: Record<string, unknown> }
    assert.equal(body.code, 'rest_upload_heic_time_limit')
    assert.match(body.message, new RegExp(`HEIC decoder .* time limit of ${HEIC_DECODE_TIME_LIMIT_MS / 1000} seconds`))
    assert.deepEqual(body.data, { status: 422, timeLimitSeconds: HEIC_DECODE_TIME_LIMIT_MS / 1000 })
  })

  test('the sizes of an iPhone photo with GPS: upright, in both formats, without GPS or EXIF, the profile kept', async () => {
    const original = readFileSync(IPHONE)
    assert.ok(readGps(original), 'the original has GPS: the check below can fail')
    const made = await createRenditions(original, 'image/heic', '2026/11/iphone.heic')
    try {
      assert.deepEqual(
        made.map((r) => `${r.format} ${r.width}x${r.height}`),
        ['jpeg 160x213', 'webp 160x213', 'jpeg 480x640', 'webp 480x640', 'jpeg 800x1067', 'webp 800x1067', 'jpeg 1200x1600', 'webp 1200x1600'],
      )
      for (const rendition of made) {
        const bytes = await mediaStore().read('renditions', rendition.fileName)
        assert.ok(bytes)
        const meta = await sharp(bytes).metadata()
        assert.deepEqual([meta.width, meta.height], [rendition.width, rendition.height])
        assert.equal(meta.exif, undefined)
        assert.ok(meta.icc, 'the Display P3 profile is kept')
        assert.equal(ExifReader.load(bytes, { expanded: true }).gps, undefined)
      }
    } finally {
      await removeRenditionFiles(made.map((r) => r.fileName))
    }
  })

  test('a damaged HEIC is refused as an image that cannot be decoded', async () => {
    const bytes = readFileSync(SMALL)
    // The header and boxes whole, the picture's data overwritten: a file of the right length that libheif refuses.
    const damaged = Buffer.concat([bytes.subarray(0, 400), Buffer.alloc(bytes.length - 400, 0xff)])
    await assert.rejects(createRenditions(damaged, 'image/heic', '2026/11/damaged.heic'), UndecodableImage)
  })

  test('a command that decoded a HEIC exits by itself: an idle worker does not hold the process', () => {
    const script = `require('./lib/media/heic-pool.ts')
      .decodeHeic(require('node:fs').readFileSync(${JSON.stringify(SMALL)}))
      .then(({ width }) => console.log(width))`
    const run = spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', '--eval', script], {
      encoding: 'utf8',
      timeout: 120_000,
    })
    assert.equal(run.signal, null, 'it ended by itself, not by the timeout')
    assert.equal(run.status, 0, run.stderr)
    assert.equal(run.stdout.trim(), '1440')
  })
})
