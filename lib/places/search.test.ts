import assert from 'node:assert/strict'
import { test } from 'node:test'
import { foldForSearch, searchColumns } from './search'

test('foldForSearch drops accents and case, and spells letters NFD keeps whole', () => {
  assert.equal(foldForSearch('Sensō-ji'), 'senso-ji')
  assert.equal(foldForSearch('CAFÉ'), 'cafe')
  assert.equal(foldForSearch('Café'), foldForSearch('CAFE'))
  assert.equal(foldForSearch('Łódź'), 'lodz')
  assert.equal(foldForSearch('Straße, Ærø'), 'strasse, aero')
  assert.equal(foldForSearch('東京タワー'), '東京タワー'.normalize('NFD').replace(/\p{M}+/gu, ''))
  assert.doesNotMatch(foldForSearch('50% off_today \\ only'), /[%_\\]/, 'no LIKE wildcard or escape character is left')
})

test('foldForSearch folds ASCII (its quicker path) as it folds the same characters beside others', () => {
  const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('')
  assert.equal(foldForSearch(ascii), foldForSearch(`${ascii}é`).slice(0, -1))
  assert.equal(foldForSearch('Harbour Light, 50_A'), 'harbour light, 50\uE001a')
  // A character outside the first plane (two UTF-16 code units) takes the whole path: 𝅗𝅥 (U+1D15E) is taken apart.
  assert.equal(foldForSearch('A\u{1D15E}'), 'a\u{1D157}')
})

test("searchColumns: title and address in one, the content's text in the other", () => {
  assert.deepEqual(searchColumns({ title: 'Sensō-ji', address: 'Asakusa, Tōkyō', content: '<p>Temple &amp; <strong>gate</strong></p>' }), {
    searchText: 'senso-ji\nasakusa, tokyo',
    searchContent: 'temple & gate',
  })
})
