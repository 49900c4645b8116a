import assert from 'node:assert/strict'
import { test } from 'node:test'
import { autop } from '@wordpress/autop'
import { cleanContent, contentFromClassic, contentText } from './html'
import { htmlFromText } from './text-html'
import { contentFromWordPress } from './wordpress'

const SITE = 'https://places.example'

test('cleanContent keeps the allowed structure as written', () => {
  const kept =
    '<h2>Day one</h2><p>We took <strong>the</strong> <em>tram</em>, <b>28</b> <i>up</i> with <code>x</code>.<br />Then:</p>' +
    '<ul><li>Alfama</li></ul><ol start="3" reversed><li>Graça</li></ol><blockquote><p>Quoted</p></blockquote><hr />' +
    '<pre>two\n  lines</pre><figure><img src="/uploads/2026/12/a.jpg" alt="A" width="800" height="600" loading="lazy" decoding="async" /><figcaption>A</figcaption></figure>' +
    '<table><caption>Prices</caption><thead><tr><th scope="col">Item</th></tr></thead><tbody><tr><td colspan="2">€3</td></tr></tbody></table>' +
    '<p><a href="/post/lisbon">ours</a> <a href="mailto:a@example.com">mail</a> <a href="https://other.example/x" rel="noopener">theirs</a></p>'
  assert.equal(cleanContent(kept, SITE), kept)
})

test('cleanContent drops scripts, handlers, styles, forms, frames and dangerous addresses, with their text where it is code', () => {
  const hostile =
    '<p onclick="steal()" style="color:red" class="x" id="y">Hi<script>alert(1)</script><style>p{}</style></p>' +
    '<iframe src="https://evil.example"></iframe><object data="x"></object><svg><script>1</script></svg>' +
    '<form action="/x"><input name="a" /><button>Go</button></form>' +
    '<a href="javascript:alert(1)">js</a><a href="JaVaScRiPt:alert(1)">js2</a><a href="data:text/html,x">data</a><a href="//evil.example/">proto</a>' +
    '<img src="x" onerror="alert(1)" /><img src="data:image/png;base64,AAAA" alt="pixel" />'
  const clean = cleanContent(hostile, SITE)
  assert.doesNotMatch(clean, /script|alert|style|onclick|onerror|iframe|object|svg|form|input|javascript|data:|evil|class=|id=/i)
  assert.equal(clean, '<p>Hi</p>Go<a>js</a><a>js2</a><a>data</a><a>proto</a>pixel')
})

test('cleanContent: h1 becomes h2, external links get rel=noopener, and images only come from the uploads', () => {
  assert.equal(cleanContent('<h1>Top</h1>'), '<h2>Top</h2>')
  assert.equal(cleanContent('<a href="https://other.example/" rel="nofollow">x</a>', SITE), '<a href="https://other.example/" rel="noopener">x</a>')
  assert.equal(cleanContent('<a href="https://places.example/post/x" rel="nofollow">x</a>', SITE), '<a href="https://places.example/post/x">x</a>')
  assert.equal(
    cleanContent('<img src="https://places.example/uploads/a.jpg" alt="ours" />', SITE),
    '<img src="/uploads/a.jpg" alt="ours" loading="lazy" decoding="async" />',
  )
  assert.equal(
    cleanContent('<img src="https://tracker.example/pixel.gif" alt="A pixel" />', SITE),
    '<a href="https://tracker.example/pixel.gif" rel="noopener">A pixel</a>',
    "another site's image is a link: the page asks nothing of that site",
  )
  assert.equal(cleanContent('<img src="/wp-admin/x.png" alt="not uploads" />', SITE), 'not uploads')
  for (const out of ['/uploads/../places/v1/export?x', '/uploads/%2e%2e/admin', '/uploads\\..\\api/x']) {
    assert.equal(cleanContent(`<img src="${out}" alt="out" />`, SITE), 'out', `${out} leaves the uploads`)
  }
  assert.equal(
    cleanContent('<img src="https://places.example/uploads/%2E%2E/admin" alt="out" />', SITE),
    '<a href="https://places.example/uploads/%2E%2E/admin" rel="noopener">out</a>',
    'an address, but no image: a link, which asks for nothing until followed',
  )
  assert.equal(
    cleanContent('<img src="/uploads/2026/./a.jpg?v=1" alt="a" />'),
    '<img src="/uploads/2026/a.jpg?v=1" alt="a" loading="lazy" decoding="async" />',
    'written as the browser resolves it',
  )
  assert.equal(
    cleanContent('<a href="javascript:x()"><img src="/uploads/a.jpg" alt="kept" /></a>'),
    '<a><img src="/uploads/a.jpg" alt="kept" loading="lazy" decoding="async" /></a>',
    'a link that lost its address keeps its image',
  )
  assert.equal(cleanContent('<xmp><img src=x onerror=alert(1)></xmp><listing><b>x</b></listing>ok'), 'ok')
})

test('htmlFromText shows plain text as it was: escaped, paragraphs at blank lines, line breaks kept', () => {
  assert.equal(htmlFromText(''), '')
  assert.equal(htmlFromText(' \n '), '')
  assert.equal(htmlFromText('a <b> & "c"'), '<p>a &lt;b&gt; &amp; &quot;c&quot;</p>')
  assert.equal(htmlFromText('one\r\ntwo\n \n\nthree'), '<p>one<br />\ntwo</p>\n<p>three</p>')
  assert.equal(contentText(htmlFromText('one\ntwo\n\nthree & <four>')), 'one\ntwo\n\nthree & <four>')
})

test('contentFromClassic makes paragraphs as WordPress does, keeps its markup and cleans it; it changes nothing twice', () => {
  const html = contentFromClassic('First\nsecond\n\n<b>Third</b> & <a href="https://x.example" onclick="x">more</a>')
  assert.equal(html, '<p>First<br />\nsecond</p>\n<p><b>Third</b> &amp; <a href="https://x.example" rel="noopener">more</a></p>')
  assert.equal(contentFromClassic(html), html)
  assert.equal(contentFromClassic('<p>Already HTML</p><ul><li>a</li></ul>'), '<p>Already HTML</p>\n<ul>\n<li>a</li>\n</ul>')
})

test("contentFromClassic's quick path for a line of text or plain paragraphs gives what the whole path gives", () => {
  for (const simple of ['Bulk post 1.', ' café &amp; bar ’ ', '<p>One.</p>', '<p>One &lt;b&gt;</p><p>Two "quoted"</p>']) {
    assert.equal(contentFromClassic(simple), cleanContent(autop(simple)).trim(), simple)
  }
})

test('contentText is what a reader sees: entities decoded, blocks apart, markup line breaks as spaces', () => {
  assert.equal(
    contentText('<h2>Title</h2><p>a<br />\nb &amp; c&#8217;s\n  d</p><ul><li>x</li><li>y</li></ul><table><tr><td>1</td><td>2</td></tr></table>'),
    'Title\n\na\nb & c’s d\n\nx\ny\n\n1 2',
  )
  assert.equal(contentText('<script>x</script>'), 'x', 'text only: what to show is cleanContent’s to decide')
})

test('contentFromWordPress renders blocks with their saved HTML and no comments, classic content with autop', () => {
  const blocks = [
    '<!-- wp:paragraph -->\n<p>We arrived at <strong>Santa Apolónia</strong>.</p>\n<!-- /wp:paragraph -->',
    '<!-- wp:heading -->\n<h2 class="wp-block-heading">Day one</h2>\n<!-- /wp:heading -->',
    '<!-- wp:list -->\n<ul class="wp-block-list"><!-- wp:list-item -->\n<li>Tram 28</li>\n<!-- /wp:list-item --><!-- wp:list-item -->\n<li>Alfama</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->',
    '<!-- wp:separator -->\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n<!-- /wp:separator -->',
    '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=abc123","type":"video","providerNameSlug":"youtube"} -->\n<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=abc123\n</div></figure>\n<!-- /wp:embed -->',
  ].join('\n\n')
  assert.equal(
    contentFromWordPress(blocks),
    [
      '<p>We arrived at <strong>Santa Apolónia</strong>.</p>',
      '<h2>Day one</h2>',
      '<ul>\n<li>Tram 28</li>\n\n<li>Alfama</li>\n</ul>',
      '<hr />',
      '<p><a href="https://www.youtube.com/watch?v=abc123" rel="noopener">https://www.youtube.com/watch?v=abc123</a></p>',
    ].join('\n'),
  )
  assert.equal(contentFromWordPress('Classic\ntext\n\nhere'), '<p>Classic<br />\ntext</p>\n<p>here</p>')
})

test('contentFromWordPress renders [caption], [embed] and [gallery] in classic content; other shortcodes stay as text', () => {
  const classic = [
    'Before.',
    '[caption id="attachment_12" align="alignnone" width="300"]<a href="/uploads/a.jpg"><img src="/uploads/a-300x200.jpg" alt="The tram" width="300" height="200" /></a> Tram 28 at <em>Graça</em>[/caption]',
    '[embed]https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1[/embed]',
    '[gallery ids="1,2,3"]',
    'After [contact-form-7 id="5"].',
  ].join('\n\n')
  assert.equal(
    contentFromWordPress(classic),
    [
      '<p>Before.</p>',
      '<figure><a href="/uploads/a.jpg"><img src="/uploads/a-300x200.jpg" alt="The tram" width="300" height="200" loading="lazy" decoding="async" /></a><figcaption>Tram 28 at <em>Graça</em></figcaption></figure>',
      '<p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=1" rel="noopener">https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=1</a></p>',
      '<p>After [contact-form-7 id="5"].</p>',
    ].join('\n'),
  )
  assert.equal(contentFromWordPress('[caption]No image here[/caption]'), '<p>No image here</p>', 'a caption without an image: its text')
})
