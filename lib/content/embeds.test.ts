import assert from 'node:assert/strict'
import { test } from 'node:test'
import { playerUrl, videoAt, withVideoCards } from './embeds'
import { cleanContent } from './html'

test('videoAt knows YouTube and Vimeo addresses, and nothing else', () => {
  const youtube = { provider: 'youtube', id: 'dQw4w9WgXcQ' }
  for (const address of [
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
    'https://youtube.com/watch?v=dQw4w9WgXcQ',
    'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ?si=abc',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    'https://www.youtube.com/embed/dQw4w9WgXcQ',
  ]) {
    assert.deepEqual(videoAt(address), youtube, address)
  }
  assert.deepEqual(videoAt('https://vimeo.com/76979871'), { provider: 'vimeo', id: '76979871' })
  assert.deepEqual(videoAt('https://player.vimeo.com/video/76979871'), { provider: 'vimeo', id: '76979871' })
  for (const address of [
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://evil.example/youtu.be/dQw4w9WgXcQ',
    'javascript://youtu.be/dQw4w9WgXcQ',
    'https://vimeo.com/channels/staffpicks',
    'not an address',
  ]) {
    assert.equal(videoAt(address), null, address)
  }
  assert.equal(playerUrl({ provider: 'youtube', id: 'dQw4w9WgXcQ' }), 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1')
  assert.equal(playerUrl({ provider: 'vimeo', id: '76979871' }), 'https://player.vimeo.com/video/76979871?dnt=1&autoplay=1')
})

test('withVideoCards makes a video address alone on its line a card; in a sentence or another address, it stays a link', () => {
  const html = cleanContent(
    [
      '<p>https://youtu.be/dQw4w9WgXcQ</p>',
      '<p><a href="https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=1">https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;t=1</a></p>',
      '<p>See <a href="https://vimeo.com/76979871">https://vimeo.com/76979871</a> too.</p>',
      '<p><a href="https://vimeo.com/76979871">our film</a></p>',
      '<p>https://example.com/video</p>',
    ].join(''),
  )
  const cards = withVideoCards(html)
  assert.equal(cards.match(/<figure class="video-card"/g)?.length, 2)
  assert.match(
    cards,
    /^<figure class="video-card" data-provider="youtube" data-video="dQw4w9WgXcQ"><button type="button" class="video-card-load">Load video from YouTube<\/button><figcaption>Loading it lets YouTube know of your visit\. Or <a href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ" rel="noopener">watch it on YouTube<\/a>\.<\/figcaption><\/figure>/,
  )
  assert.ok(cards.includes('<p>See <a href="https://vimeo.com/76979871" rel="noopener">https://vimeo.com/76979871</a> too.</p>'))
  assert.ok(cards.includes('<p><a href="https://vimeo.com/76979871" rel="noopener">our film</a></p>'), 'a link with words of its own stays one')
  assert.ok(cards.includes('<p>https://example.com/video</p>'))
  assert.doesNotMatch(cards, /youtube-nocookie|<iframe/, 'no player until the visitor asks')
})
