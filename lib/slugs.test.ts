import assert from 'node:assert/strict'
import { test } from 'node:test'
import { freeSlug, slugify } from './slugs'

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
