import assert from 'node:assert/strict'
import { test } from 'node:test'
import { titleText } from './title'

test('titleText decodes the references WordPress writes in titles, and nothing becomes markup', () => {
  assert.equal(titleText('Three days in Lisbon &amp; Sintra'), 'Three days in Lisbon & Sintra')
  assert.equal(titleText('Rock&#8217;n roll &#8211; &#x1F5FC; &#039;quoted&#039;'), "Rock’n roll – 🗼 'quoted'")
  assert.equal(titleText('&lt;b&gt;not bold&lt;/b&gt; &quot;x&quot;&nbsp;y'), '<b>not bold</b> "x"\u00a0y')
  assert.equal(titleText('<b>as written</b> & Co'), '<b>as written</b> & Co', 'markup and a lone & stay as written')
  assert.equal(
    titleText('&eacute;t&eacute; &#0; &#xD800; &#1114112; &amp'),
    '&eacute;t&eacute; &#0; &#xD800; &#1114112; &amp',
    'unknown or invalid: as written',
  )
  assert.equal(titleText('&amp;amp;'), '&amp;', 'decoded once')
})
