import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { NotACollection, readCollectionFile } from './collection-file'

// The reader against JSON.parse of the whole file, at chunk sizes that cut every string, escape and multibyte
// character somewhere: the same features, or the same refusal.

const dir = mkdtempSync(path.join(tmpdir(), 'places-collection-file-'))
after(() => rmSync(dir, { recursive: true, force: true }))
let files = 0

async function read(text: string | Buffer, chunkSize: number): Promise<unknown[]> {
  const file = path.join(dir, `${files++}.geojson`)
  writeFileSync(file, text)
  const features: unknown[] = []
  for await (const feature of readCollectionFile(file, chunkSize)) features.push(feature)
  return features
}

const CHUNK_SIZES = [1, 2, 3, 5, 7, 64, 1 << 20]
const feature = (title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, -48.85] }, properties: { title } })

const valid: Record<string, string> = {
  plain: JSON.stringify({ type: 'FeatureCollection', features: [feature('Paris'), feature('Lyon')] }),
  'type last, other members, a nested "features"': `{"features": [${JSON.stringify(feature('A'))}], "bbox": [1, 2, 3, 4], "meta": {"features": [null], "type": "x"}, "type": "FeatureCollection"}`,
  'escapes: quotes, backslashes, \\u': JSON.stringify({
    type: 'FeatureCollection',
    features: [feature('say "hi"'), feature('C:\\'), feature('\\"'), feature('\\\\\\"]}'), feature('\u0022{['), feature('tab\tnew\nline')],
  }),
  'multibyte characters': JSON.stringify({ type: 'FeatureCollection', features: [feature('Zürich, 東京, 😀'), feature('Ελλάδα')] }),
  'elements that are not objects': '{"type":"FeatureCollection","features":[null, "x", 1.5e3, -2, true, false, [1, [2]], {}, "a\\"b"]}',
  'no features': '{"type": "FeatureCollection", "features": []}',
  'white space everywhere': ' \r\n\t{ "type" : "FeatureCollection" ,\n "features" :\n [\n {"a": 1}\n ,\n 7 ,"s"\n ]\n }\n ',
  'an escaped key': '{"type": "FeatureCollection", "feat\\u0075res": [{"a": 1}]}',
}

test('reads every feature as JSON.parse does, whatever the chunks', async () => {
  for (const [name, text] of Object.entries(valid)) {
    const expected = (JSON.parse(text) as { features: unknown[] }).features
    for (const size of CHUNK_SIZES) assert.deepEqual(await read(text, size), expected, `${name}, chunks of ${size}`)
  }
})

test('a byte order mark before the JSON is skipped', async () => {
  const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(valid.plain!)])
  for (const size of [1, 2, 4, 1 << 20]) assert.equal((await read(text, size)).length, 2)
})

test('what is not JSON is a SyntaxError, what is not a FeatureCollection NotACollection', async () => {
  const notJson = [
    '{"type": "FeatureCollection", "features": [',
    '{"type": "FeatureCollection", "features": [{"a": 1}{"b": 2}]}',
    '{"type": "FeatureCollection", "features": [{"a": 1},]}',
    '{"type": "FeatureCollection", "features": [,{"a": 1}]}',
    '{"type": "FeatureCollection", "features": [{"a": 1},,{"b": 2}]}',
    '{"type": "FeatureCollection", "features": [1 2]}',
    '{"type": "FeatureCollection", "features": ["a" "b"]}',
    '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": }]}',
    '{"type": "FeatureCollection", "features": [{"a": "unterminated}]}',
    '{"type": "FeatureCollection", "features": [nul]}',
    '{"type": "FeatureCollection", "features": []} trailing',
    '{"type": "FeatureCollection" "features": []}',
    '',
  ]
  for (const text of notJson) {
    for (const size of [1, 3, 1 << 20]) {
      await assert.rejects(read(text, size), SyntaxError, `${JSON.stringify(text)}, chunks of ${size}`)
      assert.throws(() => JSON.parse(text) as unknown, SyntaxError, 'JSON.parse agrees')
    }
  }
  const notACollection = [
    '[{"type": "Feature"}]',
    '{"type": "Feature", "features": []}',
    '{"features": []}',
    '{"type": "FeatureCollection", "features": [], "features": []}',
    '{"type": "FeatureCollection", "features": {"a": 1}}',
    '"FeatureCollection"',
    '{"type": "FeatureCollection", "features": [{"a": 1}], "features": null}',
    // a key that ends as "features" does, past what the reader looks back at
    `{"type": "FeatureCollection", "${'x'.repeat(5000)}\\"features": [{"a": 1}]}`,
  ]
  for (const text of notACollection) {
    for (const size of [1, 1 << 20]) await assert.rejects(read(text, size), NotACollection, `${text}, chunks of ${size}`)
  }
})
