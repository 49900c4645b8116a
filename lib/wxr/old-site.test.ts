import assert from 'node:assert/strict'
import { test } from 'node:test'
import { markOldAddresses, oldSite, postReference, resolveMarkedAddresses, uploadKey } from './old-site'

const site = oldSite('https://travels.example')!

test("the old site's uploads and pages are found over http and https, with or without www, a multisite's uploads too", () => {
  for (const address of [
    'https://travels.example/wp-content/uploads/2020/05/a.jpg',
    'http://www.travels.example/wp-content/uploads/2020/05/a.jpg',
    '//travels.example/wp-content/uploads/sites/3/2020/05/a.jpg',
  ]) {
    assert.equal(address.replace(site.uploads, ''), address.slice(address.indexOf('2020')), address)
  }
  for (const page of ['https://travels.example/2020/05/eiffel-tower/', 'http://www.travels.example/?p=12', 'https://travels.example/about/']) {
    assert.ok(site.pages.test(page), page)
  }
  for (const other of [
    'https://travels.example.evil/wp-content/uploads/a.jpg',
    'https://cdn.example/wp-content/uploads/a.jpg',
    '/wp-content/uploads/a.jpg',
    'https://travels.example/wp-admin/post.php?post=1',
    'https://travels.example/feed/',
  ]) {
    assert.equal(site.uploads.test(other) || site.pages.test(other), false, other)
  }
  assert.equal(oldSite('https://example.org/blog/')!.uploads.test('https://example.org/blog/wp-content/uploads/x.jpg'), true)
  assert.equal(oldSite('not a url'), null)
})

test('an upload is known by its path without the size, -scaled or -rotated', () => {
  assert.equal(uploadKey('2020/05/Rome-1024x768.jpg'), '2020/05/rome.jpg')
  assert.equal(uploadKey('2020/05/rome-scaled.jpg'), '2020/05/rome.jpg')
  assert.equal(uploadKey('2020/05/rome-rotated.jpeg?ver=2'), '2020/05/rome.jpeg')
  assert.equal(uploadKey('2020/05/rome-2.jpg'), '2020/05/rome-2.jpg', 'a second upload of the same name is another photo')
})

test('a link names a post by ?p= or ?page_id=, else by the last part of its path; an archive names none', () => {
  assert.deepEqual(postReference('?p=101'), { id: 101 })
  assert.deepEqual(postReference('index.php?page_id=7&preview=true'), { id: 7 })
  assert.deepEqual(postReference('2020/05/Eiffel-Tower/#comments'), { slug: 'eiffel-tower' })
  assert.deepEqual(postReference('caf%C3%A9-de-flore/'), { slug: 'café-de-flore' })
  for (const none of ['', '2020/05/', '?s=paris']) assert.equal(postReference(none), null, none)
})

test('marked, then resolved: to the photo or page here, or back to the old site; other addresses untouched', () => {
  const html =
    '<a href="https://travels.example/wp-content/uploads/2020/05/rome.jpg"><img src=\'http://travels.example/wp-content/uploads/2020/05/rome-300x225.jpg\' alt="A"></a>' +
    '<img src="https://travels.example/wp-content/uploads/2019/01/gone.jpg"><img src="https://travels.example/not-a-link.jpg">' +
    '<a href="https://travels.example/2020/05/eiffel-tower/#map">post</a><a href="https://travels.example/?p=9">gone</a><a href="https://else.example/">x</a>'
  const { html: marked, marked: any } = markOldAddresses(html, site)
  assert.ok(any)
  assert.equal(markOldAddresses('<p><a href="/local">no old address</a></p>', site).marked, false)
  const here = {
    upload: (key: string) => (key === '2020/05/rome.jpg' ? '/uploads/2024/12/ab12-rome.jpg' : undefined),
    post: (reference: { id: number } | { slug: string }) => ('slug' in reference && reference.slug === 'eiffel-tower' ? '/post/eiffel-tower' : undefined),
  }
  assert.equal(
    resolveMarkedAddresses(marked, here, site),
    '<a href="/uploads/2024/12/ab12-rome.jpg"><img src=\'/uploads/2024/12/ab12-rome.jpg\' alt="A"></a>' +
      '<img src="https://travels.example/wp-content/uploads/2019/01/gone.jpg"><img src="https://travels.example/not-a-link.jpg">' +
      '<a href="/post/eiffel-tower#map">post</a><a href="https://travels.example/?p=9">gone</a><a href="https://else.example/">x</a>',
  )
})

test("a Places site's photos, at /uploads/: resolved to the photo here, or back to where they were; its sizes are no photo", () => {
  const html =
    '<img src="https://travels.example/uploads/2026/12/ab12cd34-rome.jpg"><img src="https://travels.example/uploads/2026/12/gone.jpg">' +
    '<img src="https://travels.example/uploads/renditions/ab12-800.webp">'
  const here = { upload: (key: string) => (key === '2026/12/ab12cd34-rome.jpg' ? '/uploads/2027/01/ef56ab78-rome.jpg' : undefined), post: () => undefined }
  assert.equal(
    resolveMarkedAddresses(markOldAddresses(html, site).html, here, site),
    '<img src="/uploads/2027/01/ef56ab78-rome.jpg"><img src="https://travels.example/uploads/2026/12/gone.jpg">' +
      '<img src="https://travels.example/uploads/renditions/ab12-800.webp">',
  )
})
