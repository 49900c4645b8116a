import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import { escapeXml } from './write'

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
