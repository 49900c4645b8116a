import assert from 'node:assert/strict'
import { test } from 'node:test'
import { markOldUploads, oldUploadsPattern, resolveMarkedUploads, uploadKey } from './uploads'

test("the old site's uploads are found over http and https, with or without www, in a multisite's folder too", () => {
  const uploads = oldUploadsPattern('https://travels.example')!
  for (const address of [
    'https://travels.example/wp-content/uploads/2020/05/a.jpg',
    'http://www.travels.example/wp-content/uploads/2020/05/a.jpg',
    '//travels.example/wp-content/uploads/sites/3/2020/05/a.jpg',
  ]) {
    assert.equal(address.replace(uploads, ''), address.slice(address.indexOf('2020')), address)
  }
  for (const other of ['https://travels.example.evil/wp-content/uploads/a.jpg', 'https://cdn.example/wp-content/uploads/a.jpg', '/wp-content/uploads/a.jpg']) {
    assert.equal(uploads.test(other), false, other)
  }
  assert.equal(oldUploadsPattern('https://example.org/blog/')!.test('https://example.org/blog/wp-content/uploads/x.jpg'), true)
  assert.equal(oldUploadsPattern('not a url'), null)
})

test('an upload is known by its path without the size, -scaled or -rotated', () => {
  assert.equal(uploadKey('2020/05/Rome-1024x768.jpg'), '2020/05/rome.jpg')
  assert.equal(uploadKey('2020/05/rome-scaled.jpg'), '2020/05/rome.jpg')
  assert.equal(uploadKey('2020/05/rome-rotated.jpeg?ver=2'), '2020/05/rome.jpeg')
  assert.equal(uploadKey('2020/05/rome-2.jpg'), '2020/05/rome-2.jpg', 'a second upload of the same name is another photo')
})

test('marked, then resolved: to the photo here, or back to the old site; other addresses untouched', () => {
  const html =
    '<a href="https://travels.example/wp-content/uploads/2020/05/rome.jpg"><img src=\'http://travels.example/wp-content/uploads/2020/05/rome-300x225.jpg\' alt="A"></a>' +
    '<img src="https://travels.example/wp-content/uploads/2019/01/gone.jpg"><a href="https://travels.example/2020/05/rome/">post</a>'
  const { html: marked, marked: any } = markOldUploads(html, oldUploadsPattern('https://travels.example')!)
  assert.ok(any)
  assert.equal(markOldUploads('<p>no uploads</p>', oldUploadsPattern('https://travels.example')!).marked, false)
  const here = new Map([['2020/05/rome.jpg', '/uploads/2024/12/ab12-rome.jpg']])
  assert.equal(
    resolveMarkedUploads(marked, (key) => here.get(key), 'https://travels.example/wp-content/uploads/'),
    '<a href="/uploads/2024/12/ab12-rome.jpg"><img src=\'/uploads/2024/12/ab12-rome.jpg\' alt="A"></a>' +
      '<img src="https://travels.example/wp-content/uploads/2019/01/gone.jpg"><a href="https://travels.example/2020/05/rome/">post</a>',
  )
})
