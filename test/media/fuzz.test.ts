import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { after, test } from 'node:test'

// Hostile files through the storing path of every upload (lib/media/storage.ts storeImage: size limit, type
// sniffing, GPS reading, the stripped public copy): thousands of mutated real photos must each be stored or
// refused with a clear error, within a time bound, leaving no stray file, and never a served copy with GPS.
// `FUZZ_FILES=3000 npm run fuzz` runs the long version; npm test runs a short one.

const uploads = mkdtempSync(path.join(tmpdir(), 'places-fuzz-'))
process.env.UPLOADS_DIR = uploads
process.env.UPLOAD_MAX_BYTES = String(8 * 1024 * 1024)
const COUNT = Number(process.env.FUZZ_FILES ?? 300)
const BOUND_MS = 15_000

const corpusDir = path.join('test', 'fixtures', 'exif')
const corpus = readdirSync(corpusDir)
  .filter((f) => !/\.(json|md)$/.test(f) && readFileSync(path.join(corpusDir, f)).length < 1_500_000)
  .map((f) => readFileSync(path.join(corpusDir, f)))

let seed = 20261122
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31
  return seed % n
}

const MUTATIONS: Record<string, (file: Buffer) => Buffer> = {
  bitflips: (file) => {
    const out = Buffer.from(file)
    for (let i = 0, n = 1 + random(64); i < n; i++) out[random(Math.min(out.length, 65536))]! ^= 1 << random(8)
    return out
  },
  truncate: (file) => file.subarray(0, random(file.length)),
  splice: (file) => {
    const at = random(Math.min(file.length, 4096))
    return Buffer.concat([file.subarray(0, at), Buffer.from(Array.from({ length: 1 + random(512) }, () => random(256))), file.subarray(at)])
  },
  'offsets out of the file': (file) => {
    const out = Buffer.from(file)
    const exif = out.indexOf('Exif\0\0')
    const start = exif >= 0 ? exif + 6 : random(Math.min(out.length, 512))
    for (let i = 0; i < 24; i++) out.writeUInt32BE(0xfffffff0 - random(64), Math.min(start + 8 + 4 * random(64), out.length - 4))
    return out
  },
  'huge declared sizes': (file) => {
    const out = Buffer.from(file)
    for (let i = 2; i + 4 < Math.min(out.length, 4096); i++) {
      if (out[i] === 0xff && out[i + 1]! >= 0xe0 && out[i + 1]! <= 0xef) out.writeUInt16BE(0xffff, i + 2)
    }
    const png = out.indexOf('IHDR')
    if (png >= 4) out.writeUInt32BE(0x7fffffff, png - 4)
    return out
  },
  polyglot: (file) => Buffer.concat([file.subarray(0, 64), Buffer.from('<html><script>alert(1)</script></html>PK\u0003\u0004'), file.subarray(64)]),
  'not an image': () => Buffer.from(`%PDF-1.4\n${'x'.repeat(random(2000))}`),
  tiny: (file) => file.subarray(0, random(4)),
}

after(async () => {
  const { endExiftool } = await import('../../lib/media/strip-location')
  await endExiftool()
  rmSync(uploads, { recursive: true, force: true })
})

test(
  `${COUNT} mutated photos: stored or refused, each within ${BOUND_MS / 1000} s, nothing left behind, no GPS served`,
  { timeout: COUNT * BOUND_MS },
  async () => {
    const { storeImage } = await import('../../lib/media/storage')
    const { readGps } = await import('../../lib/media/exif-gps')
    const { ApiError } = await import('../../lib/http/errors')
    const names = Object.keys(MUTATIONS)
    const outcomes: Record<string, number> = {}
    const kept: string[] = []
    for (let i = 0; i < COUNT; i++) {
      const mutation = names[i % names.length]!
      const file = MUTATIONS[mutation]!(corpus[random(corpus.length)]!)
      const extension = ['jpg', 'png', 'heic', 'webp', 'txt', ''][random(6)]
      const started = performance.now()
      try {
        const image = await storeImage(`fuzz-${i}.${extension}`, Readable.from([file]))
        kept.push(image.filePath)
        outcomes.stored = (outcomes.stored ?? 0) + 1
        if (image.gps)
          assert.ok(Math.abs(image.gps.latitude) <= 90 && Math.abs(image.gps.longitude) <= 180 && !(image.gps.latitude === 0 && image.gps.longitude === 0))
      } catch (error) {
        assert.ok(error instanceof ApiError, `${mutation} #${i}: ${(error as Error).stack}`)
        assert.ok(error.status >= 400 && error.status < 500, `${mutation} #${i}: ${error.status}`)
        outcomes[error.code] = (outcomes[error.code] ?? 0) + 1
      }
      assert.ok(performance.now() - started < BOUND_MS, `${mutation} #${i} took ${Math.round(performance.now() - started)} ms`)
    }
    console.log(`fuzz outcomes: ${JSON.stringify(outcomes)}`)
    const files = (tree: string) => {
      try {
        return readdirSync(path.join(uploads, tree), { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => path.relative(path.join(uploads, tree), path.join(e.parentPath, e.name)))
          .sort()
      } catch {
        return []
      }
    }
    assert.deepEqual(files('incoming'), [], 'nothing half-written')
    assert.deepEqual(files('originals'), [...kept].sort(), 'an original for each stored image, and no other file')
    for (const served of files('public')) {
      assert.ok(kept.includes(served))
      assert.equal(readGps(readFileSync(path.join(uploads, 'public', served))), null, `${served} is served without GPS`)
    }
  },
)
