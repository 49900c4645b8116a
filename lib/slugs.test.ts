import assert from 'node:assert/strict'
import { test } from 'node:test'
import { freeSlug, slugify, SlugsInUse } from './slugs'

test('slugify as WordPress: lower case, accents dropped, dashes', () => {
  assert.equal(slugify('Café de Flore'), 'cafe-de-flore')
  assert.equal(slugify("Musée d'Orsay"), 'musee-dorsay')
  assert.equal(slugify('Ben & Jerry’s  Factory!'), 'ben-jerrys-factory')
  assert.equal(slugify('東京タワー (Tokyo Tower)'), '東京タワー-tokyo-tower')
  assert.equal(slugify('../../etc/passwd'), 'etc-passwd')
  assert.equal(slugify('!!!'), '')
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
  const inUse = new SlugsInUse(new Set(['paris', 'paris-3', 'paris-5']))
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
