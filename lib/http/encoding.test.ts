import assert from 'node:assert/strict'
import { test } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { acceptedCodings, codingEtag, encode } from './encoding'

const accepting = (header?: string) =>
  acceptedCodings(new Request('http://places.test/', { headers: header === undefined ? {} : { 'Accept-Encoding': header } }))

test('the codings a request accepts, its preferred first', () => {
  const cases: [string | undefined, string[]][] = [
    [undefined, ['identity']],
    ['', ['identity']],
    ['identity', ['identity']],
    ['gzip', ['gzip', 'identity']],
    ['br', ['br', 'identity']],
    // A browser's; equal q-values go to brotli, whatever their order.
    ['gzip, deflate, br, zstd', ['br', 'gzip', 'identity']],
    ['gzip, br', ['br', 'gzip', 'identity']],
    ['br;q=0.5, gzip', ['gzip', 'br', 'identity']],
    ['br;q=0, gzip', ['gzip', 'identity']],
    ['*', ['br', 'gzip', 'identity']],
    ['gzip;q=0, *', ['br', 'identity']],
    ['gzip, identity;q=0', ['gzip']],
    ['deflate', ['identity']],
    // Nothing acceptable, identity refused too: identity all the same (RFC 9110 §12.5.3 allows it).
    ['identity;q=0', ['identity']],
    ['*;q=0', ['identity']],
    ['BR', ['br', 'identity']],
  ]
  for (const [header, expected] of cases) assert.deepEqual(accepting(header), expected, `Accept-Encoding: ${header}`)
})

test("each coding has its own ETag, made from the identity's", () => {
  assert.equal(codingEtag('"abc"', 'identity'), '"abc"')
  assert.equal(codingEtag('"abc"', 'br'), '"abc-br"')
  assert.equal(codingEtag('"abc"', 'gzip'), '"abc-gz"')
  assert.equal(codingEtag('W/"abc"', 'br'), 'W/"abc-br"', 'a weak tag stays weak')
})

test('encoded bytes decode to the identity bytes', async () => {
  const text = JSON.stringify({ type: 'FeatureCollection', features: Array.from({ length: 200 }, (_, id) => ({ id, title: `Place ${id}` })) })
  const identity = new TextEncoder().encode(text)
  assert.equal(await encode(identity, 'identity'), identity)
  const br = await encode(identity, 'br')
  const gzip = await encode(identity, 'gzip')
  assert.equal(brotliDecompressSync(br).toString(), text)
  assert.equal(gunzipSync(gzip).toString(), text)
  assert.ok(br.byteLength * 5 < identity.byteLength && gzip.byteLength * 5 < identity.byteLength, 'both much smaller')
  assert.equal(br.byteOffset, 0, 'a buffer of its own, not a slice of a larger one')
  assert.equal(br.buffer.byteLength, br.byteLength)
})
