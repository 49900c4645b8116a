import assert from 'node:assert/strict'
import { test } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { cachedAnswer, cachedBody } from './cache'

// The answers' cache with its default size (RESPONSE_CACHE_MB unset in the test runner's environment).

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

test('one build per data version and key, shared by requests that ask at once', async () => {
  let builds = 0
  // The first build is held until all three have asked: they ask while it is under way.
  let finishBuilding!: () => void
  const held = new Promise<void>((resolve) => (finishBuilding = resolve))
  const build = async () => {
    builds++
    await held
    return `answer ${builds}`
  }
  const asking = Promise.all([cachedBody(1, 'a', build), cachedBody(1, 'a', build), cachedBody(1, 'a', build)])
  finishBuilding()
  const answers = await asking
  assert.deepEqual(answers.map(text), ['answer 1', 'answer 1', 'answer 1'])
  assert.equal(text(await cachedBody(1, 'a', build)), 'answer 1')
  assert.equal(builds, 1)
  assert.equal(text(await cachedBody(1, 'b', build)), 'answer 2', 'another key is another answer')
  assert.equal(text(await cachedBody(2, 'a', build)), 'answer 3', 'a new data version is built anew')
  assert.equal(builds, 3)
})

test('a failed build is not kept: the next request builds again', async () => {
  let calls = 0
  const failing = (): Promise<string> => {
    calls++
    return Promise.reject(new Error('no such post'))
  }
  await assert.rejects(cachedBody(1, 'missing', failing), /no such post/)
  await assert.rejects(cachedBody(1, 'missing', failing), /no such post/)
  assert.equal(calls, 2)
  assert.equal(text(await cachedBody(1, 'missing', () => Promise.resolve('found now'))), 'found now')
})

test('each coding is compressed once from the identity bytes, which are built once', async () => {
  let builds = 0
  const text = 'a'.repeat(5000)
  const build = () => {
    builds++
    return Promise.resolve(text)
  }
  const [br, alsoBr, gzip] = await Promise.all([cachedBody(7, 'c', build, 'br'), cachedBody(7, 'c', build, 'br'), cachedBody(7, 'c', build, 'gzip')])
  assert.equal(builds, 1, 'the codings share one build')
  assert.equal(br, alsoBr, 'requests that ask at once share one compression')
  assert.equal(brotliDecompressSync(br).toString(), text)
  assert.equal(gunzipSync(gzip).toString(), text)
  assert.equal(await cachedBody(7, 'c', build, 'br'), br, 'kept')
  assert.equal(text.length, (await cachedBody(7, 'c', build)).byteLength)
  assert.equal(builds, 1)
})

test('the head kept beside a body is the same in every coding', async () => {
  const build = () => Promise.resolve({ body: 'x'.repeat(2000), head: '<https://places.test/next>; rel="next"' })
  for (const coding of ['identity', 'br', 'gzip'] as const) {
    assert.equal((await cachedAnswer(8, 'h', build, coding)).head, '<https://places.test/next>; rel="next"', coding)
  }
})
