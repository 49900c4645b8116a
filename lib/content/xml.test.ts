import assert from 'node:assert/strict'
import { test } from 'node:test'
import { escapeXml } from './xml'

test('text for XML: markup escaped, and what XML 1.0 cannot hold dropped, so that one title never breaks a feed', () => {
  assert.equal(escapeXml(`Tom & "Jerry's" <b>`), 'Tom &#38; &#34;Jerry&#39;s&#34; &#60;b&#62;')
  assert.equal(escapeXml('a\u0000b\u0007c\u001fd\ufffee\uffff'), 'abcde')
  assert.equal(escapeXml('tab\tline\nreturn\r'), 'tab\tline\nreturn\r', 'the three control characters XML allows are kept')
  assert.equal(escapeXml('lone \ud800 surrogate, pair 😀'), 'lone  surrogate, pair 😀')
})
