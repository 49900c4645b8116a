import assert from 'node:assert/strict'
import { test } from 'node:test'
import { SlugsInUse, StringSet } from './places/slugs-in-use'
import { freeSlug, slugify } from './slugs'

test('slugify as WordPress: lower case, accents dropped, dashes', () => {
  assert.equal(slugify('Café de Flore'), 'cafe-de-flore')
  assert.equal(slugify("Musée d'Orsay"), 'musee-dorsay')
  assert.equal(slugify('Ben & Jerry’s  Factory!'), 'ben-jerrys-factory')
  assert.equal(slugify('東京タワー (Tokyo Tower)'), '東京タワー-tokyo-tower')
  assert.equal(slugify('../../etc/passwd'), 'etc-passwd')
  assert.equal(slugify('!!!'), '')
})

test('slugify cuts at 190 units, never inside a surrogate pair nor before a dash', () => {
  assert.equal(slugify('a'.repeat(300)), 'a'.repeat(190))
  // 𠀀 (U+20000, a CJK ideograph) is two UTF-16 units; the 190th unit would be the first half of one.
  assert.equal(slugify('a' + '𠀀'.repeat(100)), 'a' + '𠀀'.repeat(94))
  assert.equal(slugify('𠀀'.repeat(100)), '𠀀'.repeat(95))
  assert.equal(slugify('a'.repeat(189) + ' b'), 'a'.repeat(189))
  assert.equal(slugify('a'.repeat(189) + ' ' + 'b'.repeat(10)), 'a'.repeat(189))
  const cut = slugify('a' + '𠀀'.repeat(100))
  assert.equal(Buffer.from(cut).toString(), cut, 'no lone surrogate: the same text back from UTF-8')
})

test('freeSlug appends -2, -3… as wp_unique_post_slug', () => {
  const taken = new Set(['paris', 'paris-2'])
  assert.equal(
    freeSlug('paris', (s) => taken.has(s)),
    'paris-3',
  )
  assert.equal(
    freeSlug('lyon', (s) => taken.has(s)),
    'lyon',
  )
  assert.equal(
    freeSlug('', () => false),
    'untitled',
  )
  assert.equal(
    freeSlug('Paris!', (s) => taken.has(s)),
    'paris-3',
    'a title is slugified first',
  )
})

test('SlugsInUse takes the slugs freeSlug would, one after the other, gaps and asked-for suffixes included', () => {
  const inUse = new SlugsInUse(['paris', 'paris-3'])
  inUse.add(['paris-5'])
  const taken = new Set(['paris', 'paris-3', 'paris-5'])
  const wanted = ['Paris', 'paris', 'paris', 'paris-7', 'Paris', 'paris', 'Lyon', 'paris-7', 'lyon', 'paris']
  const expected = ['paris-2', 'paris-4', 'paris-6', 'paris-7', 'paris-8', 'paris-9', 'lyon', 'paris-7-2', 'lyon-2', 'paris-10']
  for (const [index, title] of wanted.entries()) {
    const slug = freeSlug(title, (s) => taken.has(s))
    taken.add(slug)
    assert.equal(slug, expected[index])
    assert.equal(inUse.take(title), slug, `${title}, the ${index + 1}th`)
  }
})

test('StringSet holds what a Set holds, through its growth, for strings of any script and length', () => {
  const set = new StringSet()
  const same = new Set<string>()
  const long = 'x'.repeat(5_000)
  const huge = 'é'.repeat(800_000) // 1.6 MB of UTF-8: longer than the set's blocks of 1 MB
  const strings = ['', 'paris', 'Paris', 'paris-2', 'café', 'cafe\u0301', '東京タワー', '😀', long, `${long}y`, huge]
  // Some 1.5 MB of short strings, past the ends of blocks, with the huge ones (6 MB) among them.
  for (let i = 0; i < 100_000; i++) strings.push(`place-${i}`, `ünïcode-${i % 977}-東`)
  strings.splice(60_000, 0, `${huge}!`, 'x'.repeat(3 << 20))
  for (const [i, text] of strings.entries()) {
    // Each string is asked for before it is added and after: absent until added, present for good after.
    assert.equal(set.has(text), same.has(text), `${text.slice(0, 20)}, the ${i + 1}th`)
    set.add(text)
    same.add(text)
    assert.equal(set.has(text), true)
  }
  assert.equal(set.size, same.size)
  for (const text of same) assert.equal(set.has(text), true)
  for (const text of ['pari', 'paris-', 'place-100000', 'ünïcode-977-東', long.slice(1), 'x', huge.slice(1), `${huge}é`])
    assert.equal(set.has(text), false, text.slice(0, 20))
})
