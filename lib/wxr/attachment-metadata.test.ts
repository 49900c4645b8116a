import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AttachmentMetadataError, originalOf, readAttachmentMetadata } from './attachment-metadata'

// As WordPress 6 stores it for a phone photo it scaled: PHP's s:N: counts bytes, so the multibyte caption and title
// (s:40: for 28 characters) come before the field that matters.
const SCALED =
  'a:7:{s:5:"width";i:2560;s:6:"height";i:1920;s:4:"file";s:24:"2021/07/tokyo-scaled.jpg";s:8:"filesize";i:512345;s:5:"sizes";a:1:{s:9:"thumbnail";a:5:{s:4:"file";s:17:"tokyo-150x150.jpg";s:5:"width";i:150;s:6:"height";i:150;s:9:"mime-type";s:10:"image/jpeg";s:8:"filesize";i:6123;}}s:10:"image_meta";a:12:{s:8:"aperture";s:3:"1.8";s:6:"credit";s:0:"";s:6:"camera";s:9:"iPhone 12";s:7:"caption";s:40:"Tōkyō at night — 東京タワー ☕";s:17:"created_timestamp";s:10:"1625140800";s:9:"copyright";s:13:"© Ana López";s:12:"focal_length";s:3:"4.2";s:3:"iso";s:2:"32";s:13:"shutter_speed";s:6:"0.0011";s:5:"title";s:15:"東京タワー";s:11:"orientation";s:1:"1";s:8:"keywords";a:0:{}}s:14:"original_image";s:9:"tokyo.jpg";}'

test('reads original_image past multibyte strings, whose lengths are bytes', () => {
  const metadata = readAttachmentMetadata(SCALED)
  assert.deepEqual(metadata, { file: '2021/07/tokyo-scaled.jpg', originalImage: 'tokyo.jpg' })
  assert.equal(originalOf('2021/07/tokyo-scaled.jpg', metadata), '2021/07/tokyo.jpg')
})

test('an image WordPress kept as uploaded has no original', () => {
  const metadata = readAttachmentMetadata('a:3:{s:5:"width";i:640;s:6:"height";i:480;s:4:"file";s:13:"2021/07/a.jpg";}')
  assert.deepEqual(metadata, { file: '2021/07/a.jpg', originalImage: null })
  assert.equal(originalOf('2021/07/a.jpg', metadata), null)
})

test('original_image is a name in the same folder: a path in it is not followed', () => {
  assert.equal(originalOf('2021/07/x-rotated.jpg', { file: null, originalImage: '../../../etc/x.jpg' }), '2021/07/x.jpg')
  assert.equal(originalOf('x-scaled.jpg', { file: null, originalImage: 'x.jpg' }), 'x.jpg')
  assert.equal(originalOf('2021/07/x-scaled.jpg', { file: null, originalImage: '..' }), null)
})

test('lengths counted in characters (data broken by a search-and-replace) or not an array are errors', () => {
  // 28 characters, 40 bytes: what a tool that counts characters writes.
  const characters = SCALED.replace('s:40:', 's:28:')
  assert.throws(() => readAttachmentMetadata(characters), AttachmentMetadataError)
  assert.throws(() => readAttachmentMetadata('s:5:"hello";'), AttachmentMetadataError)
  assert.throws(() => readAttachmentMetadata('not serialized'), AttachmentMetadataError)
})
