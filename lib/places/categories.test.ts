import assert from 'node:assert/strict'
import { test } from 'node:test'
import { toCategoryTree } from './categories'

test('toCategoryTree: depth first, siblings by name, each with its depth', () => {
  const rows = [
    { id: 1, name: 'Europe', parentId: null },
    { id: 2, name: 'France', parentId: 1 },
    { id: 3, name: 'Paris', parentId: 2 },
    { id: 4, name: 'austria', parentId: 1 },
    { id: 5, name: 'Food & Drink', parentId: null },
  ]
  assert.deepEqual(toCategoryTree(rows), [
    { id: 1, name: 'Europe', depth: 0 },
    { id: 4, name: 'austria', depth: 1 },
    { id: 2, name: 'France', depth: 1 },
    { id: 3, name: 'Paris', depth: 2 },
    { id: 5, name: 'Food & Drink', depth: 0 },
  ])
})
