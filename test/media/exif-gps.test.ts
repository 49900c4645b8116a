import assert from 'node:assert/strict'
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import { ExifTool } from 'exiftool-vendored'
import { readGps, usableGps } from '../../lib/media/exif-gps'
import { instantOf, readPhotoFacts } from '../../lib/media/exif-time'

// The real-photo corpus (test/fixtures/exif, with ExifTool's ground truth in truth.json).
const corpus = path.join('test', 'fixtures', 'exif')
const truth = JSON.parse(readFileSync(path.join(corpus, 'truth.json'), 'utf8')) as {
  file: string
  has_gps: boolean
  latitude: number | null
  longitude: number | null
}[]

describe('readGps agrees with ExifTool on every photo of the corpus', () => {
  assert.equal(truth.length, 27)
  for (const row of truth) {
    test(row.file, () => {
      const gps = readGps(readFileSync(path.join(corpus, row.file)))
      if (!row.has_gps) return assert.equal(gps, null)
      assert.ok(gps, 'has GPS')
      assert.ok(Math.abs(gps.latitude - row.latitude!) < 1e-6, `latitude ${gps.latitude} vs ${row.latitude}`)
      assert.ok(Math.abs(gps.longitude - row.longitude!) < 1e-6, `longitude ${gps.longitude} vs ${row.longitude}`)
    })
  }
})

test('usableGps: out of range, the pair 0,0, NaN, infinities and non-numbers count as missing', () => {
  assert.deepEqual(usableGps(45.5, -73.5), { latitude: 45.5, longitude: -73.5 })
  assert.deepEqual(usableGps(-90, 180), { latitude: -90, longitude: 180 })
  assert.deepEqual(usableGps(0, 12), { latitude: 0, longitude: 12 }, 'one zero is a real place')
  for (const [lat, lng] of [
    [0, 0],
    [90.1, 0],
    [-91, 10],
    [10, 180.5],
    [10, -181],
    [Number.NaN, 1],
    [1, Infinity],
    [null, 1],
    ['45', '9'],
    [undefined, undefined],
  ]) {
    assert.equal(usableGps(lat, lng), null, `${lat}, ${lng}`)
  }
})

test('broken files have no GPS and never throw: empty, random, truncated anywhere', () => {
  assert.equal(readGps(Buffer.alloc(0)), null)
  assert.equal(readGps(Buffer.from('not an image at all')), null)
  let seed = 1
  const random = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 255))
  assert.equal(readGps(random), null)
  for (const row of truth) {
    const bytes = readFileSync(path.join(corpus, row.file))
    for (const fraction of [0.001, 0.01, 0.05, 0.3, 0.9]) {
      const gps = readGps(bytes.subarray(0, Math.floor(bytes.length * fraction)))
      if (gps) assert.ok(usableGps(gps.latitude, gps.longitude), `${row.file} cut at ${fraction}`)
    }
  }
})

describe('GPS whose hemisphere reference is missing counts as missing', () => {
  const exiftool = new ExifTool({ maxProcs: 1, writeArgs: ['-overwrite_original'] })
  const dir = mkdtempSync(path.join(tmpdir(), 'places-exif-'))
  after(async () => {
    await exiftool.end()
    rmSync(dir, { recursive: true, force: true })
  })

  for (const tag of ['GPSLatitudeRef', 'GPSLongitudeRef'] as const) {
    test(`without ${tag}`, async () => {
      const file = path.join(dir, `${tag}.jpg`)
      copyFileSync(path.join(corpus, 'gox_gps.jpg'), file)
      assert.ok(readGps(readFileSync(file)), 'the photo has GPS to begin with')
      await exiftool.write(file, { [tag]: null })
      assert.equal(readGps(readFileSync(file)), null)
    })
  }
})

describe('readPhotoFacts agrees with ExifTool on the time and camera of every photo of the corpus', () => {
  const exiftool = new ExifTool({ maxProcs: 1 })
  after(() => exiftool.end())
  for (const row of truth) {
    test(row.file, async () => {
      const tags = await exiftool.readRaw<Record<string, string | number | undefined>>(path.join(corpus, row.file), [
        '-EXIF:DateTimeOriginal',
        '-EXIF:OffsetTimeOriginal',
        '-EXIF:SubSecTimeOriginal',
        '-EXIF:Make',
        '-EXIF:Model',
      ])
      const facts = readPhotoFacts(readFileSync(path.join(corpus, row.file)))
      const [date, time] = String(tags.DateTimeOriginal ?? '').split(' ')
      const subSeconds = tags.SubSecTimeOriginal === undefined ? '' : `.${String(tags.SubSecTimeOriginal).padStart(2, '0').slice(0, 3)}`
      const offset = tags.OffsetTimeOriginal === undefined ? null : String(tags.OffsetTimeOriginal)
      const expected = date ? { wallClock: `${date.replaceAll(':', '-')}T${time}${subSeconds}`, offset } : null
      assert.deepEqual(facts.time, expected)
      for (const part of [tags.Make, tags.Model].map((tag) => String(tag ?? '').trim())) {
        if (part) assert.ok(facts.camera.toLowerCase().includes(part.toLowerCase().split(/\s+/)[0]!), `${facts.camera} names ${part}`)
      }
    })
  }

  test("a photo's instant: at its own offset, else its wall clock in the site's time zone", () => {
    assert.equal(instantOf({ wallClock: '2020-05-04T18:39:11.644', offset: '-04:00' }, 'Europe/Berlin'), Date.parse('2020-05-04T22:39:11.644Z'))
    assert.equal(instantOf({ wallClock: '2010-08-05T16:23:59', offset: null }, 'Europe/Ljubljana'), Date.parse('2010-08-05T14:23:59Z'))
    assert.equal(instantOf({ wallClock: '2010-08-05T16:23:59', offset: null }, 'UTC'), Date.parse('2010-08-05T16:23:59Z'))
  })
})
