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

test('searchColumns: title and address in one, content in the other', () => {
  assert.deepEqual(searchColumns({ title: 'Sensō-ji', address: 'Asakusa, Tōkyō', content: '<p>Temple</p>' }), {
    searchText: 'senso-ji\nasakusa, tokyo',
    searchContent: '<p>temple</p>',
  })
})
