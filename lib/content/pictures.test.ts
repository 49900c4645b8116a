import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Picture } from '../api/contract'
import { contentImagePaths, withContentPictures } from './pictures'

const rome: Picture = {
  alt: 'Rome',
  width: 1600,
  height: 1200,
  src: '/uploads/renditions/b.jpg',
  srcset: '/uploads/renditions/a.jpg 160w, /uploads/renditions/b.jpg 800w',
  webpSrcset: '/uploads/renditions/a.webp 160w',
}

test("content's images of this site's uploads are found by their stored path, encoded or not", () => {
  const html =
    '<p><img src="/uploads/2024/12/ab-rome%20x.jpg" alt="A" /></p><img src="/uploads/renditions/c.jpg" /><img src="https://elsewhere.example/x.jpg" />'
  assert.deepEqual(contentImagePaths(html), ['2024/12/ab-rome x.jpg', 'renditions/c.jpg'])
  assert.deepEqual(contentImagePaths('<img src="/uploads/%E0%A4%A.jpg" />'), [], 'an address that does not decode names nothing')
})

test('a width its writer chose under the photo’s own is kept, the height to scale; src need not come first', () => {
  const html = '<img alt="Thumb" width="150" height="150" src="/uploads/2024/12/ab-rome.jpg" class="x" />'
  assert.deepEqual(contentImagePaths(html), ['2024/12/ab-rome.jpg'])
  assert.equal(
    withContentPictures(html, new Map([['2024/12/ab-rome.jpg', rome]])),
    '<img alt="Thumb" src="/uploads/renditions/b.jpg" srcset="/uploads/renditions/a.jpg 160w, /uploads/renditions/b.jpg 800w" sizes="(max-width: 48rem) min(100vw, 150px), min(46rem, 150px)" width="150" height="113" class="x" />',
  )
})

test('an image that is a public photo is served as its sizes, never wider than they are; any other is left as it is', () => {
  const html =
    '<figure><img src="/uploads/2024/12/ab-rome.jpg" alt="The arena" width="2000" height="20" loading="lazy" /></figure><img src="/uploads/2024/12/draft.jpg" alt="D" />'
  assert.equal(
    withContentPictures(html, new Map([['2024/12/ab-rome.jpg', rome]])),
    '<figure><img src="/uploads/renditions/b.jpg" srcset="/uploads/renditions/a.jpg 160w, /uploads/renditions/b.jpg 800w" sizes="(max-width: 48rem) 100vw, 46rem" width="1600" height="1200" alt="The arena" loading="lazy" /></figure>' +
      '<img src="/uploads/2024/12/draft.jpg" alt="D" />',
  )
})
