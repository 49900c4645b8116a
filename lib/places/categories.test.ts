import assert from 'node:assert/strict'
import { test } from 'node:test'
import { colorsOf, toCategoryTree, topLevelOf } from './categories'
import { mixOf, NO_CATEGORY_COLOR, PALETTE, parseColor, placeColor } from './category-colors'

const rows = [
  { id: 1, name: 'Europe', slug: 'europe', parentId: null, color: null },
  { id: 2, name: 'France', slug: 'france', parentId: 1, color: '#000000' },
  { id: 3, name: 'Paris', slug: 'paris', parentId: 2, color: null },
  { id: 4, name: 'austria', slug: 'austria', parentId: 1, color: null },
  { id: 5, name: 'Food & Drink', slug: 'food', parentId: null, color: '#ABCDEF' },
  { id: 6, name: 'Asia', slug: 'asia', parentId: null, color: 'red; background: url(x)' },
]

test('toCategoryTree: depth first, siblings by name, each with its depth and its colour', () => {
  const colors = new Map([[1, '#111111']])
  assert.deepEqual(toCategoryTree(rows.slice(0, 5), colors), [
    { id: 1, name: 'Europe', slug: 'europe', depth: 0, color: '#111111' },
    { id: 4, name: 'austria', slug: 'austria', depth: 1, color: NO_CATEGORY_COLOR },
    { id: 2, name: 'France', slug: 'france', depth: 1, color: NO_CATEGORY_COLOR },
    { id: 3, name: 'Paris', slug: 'paris', depth: 2, color: NO_CATEGORY_COLOR },
    { id: 5, name: 'Food & Drink', slug: 'food', depth: 0, color: NO_CATEGORY_COLOR },
  ])
})

test('colorsOf: a top-level category its own colour or the palette, by position; a subcategory its top-level one', () => {
  const colors = colorsOf(rows)
  // Europe has none: the palette's first. France's own colour is not shown: it takes Europe's, as Paris does.
  assert.deepEqual(
    [1, 2, 3, 4].map((id) => colors.get(id)),
    Array(4).fill(PALETTE[0]),
  )
  assert.equal(colors.get(5), '#abcdef')
  // Anything but #rrggbb is never shown: Asia, the third top-level category, takes the palette's third.
  assert.equal(colors.get(6), PALETTE[2])
})

test('colorsOf: a cycle of parents has no colour and does not loop', () => {
  const colors = colorsOf([
    { id: 1, parentId: 2, color: null },
    { id: 2, parentId: 1, color: null },
    { id: 3, parentId: null, color: null },
  ])
  assert.deepEqual([...colors], [[3, PALETTE[0]]])
})

test('topLevelOf: each category of the tree its top-level one', () => {
  const tree = toCategoryTree(rows, colorsOf(rows))
  assert.deepEqual(Object.fromEntries(topLevelOf(tree)), { 1: 1, 2: 1, 3: 1, 4: 1, 5: 5, 6: 6 })
})

test('parseColor: #rrggbb only, in lower case', () => {
  assert.equal(parseColor(' #A1B2C3 '), '#a1b2c3')
  for (const bad of ['#abc', 'red', '#abcdefg', '#ab cdef', '', null, undefined, '#abcdef;x']) assert.equal(parseColor(bad), null, String(bad))
})

test("placeColor: the colour of the place's category of lowest id; mixOf: shares of a circle, largest first", () => {
  const colors = new Map([
    [3, '#333333'],
    [9, '#999999'],
  ])
  assert.equal(placeColor([{ id: 9 }, { id: 3 }], colors), '#333333')
  assert.equal(placeColor([], colors), NO_CATEGORY_COLOR)
  assert.equal(placeColor([{ id: 4 }], colors), NO_CATEGORY_COLOR)
  assert.equal(mixOf([{ color: '#999999', count: 5 }]), '#999999')
  assert.equal(mixOf([]), NO_CATEGORY_COLOR)
  assert.equal(
    mixOf([
      { color: '#999999', count: 1 },
      { color: '#333333', count: 3 },
      { color: '#999999', count: 1 },
      { color: '#111111', count: 0 },
    ]),
    'conic-gradient(#333333 0.0% 60.0%, #999999 60.0% 100.0%)',
  )
})

test('the palette: twelve colours, each at least 4.5:1 against white, none the colour of no category', () => {
  // WCAG 2's relative luminance and contrast ratio.
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
  }
  assert.equal(new Set(PALETTE).size, 12)
  for (const color of PALETTE) {
    assert.equal(parseColor(color), color)
    assert.ok(1.05 / (luminance(color) + 0.05) >= 4.5, `${color} against white`)
  }
  assert.ok(!(PALETTE as readonly string[]).includes(NO_CATEGORY_COLOR))
})
