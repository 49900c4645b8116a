import assert from 'node:assert/strict'
import { test } from 'node:test'
import { safeCallbackPath } from './callback-url'

const SITE = 'https://places.example.org'

test('paths and queries on the site are kept', () => {
  assert.equal(safeCallbackPath('/admin/posts/12?tab=photos', SITE), '/admin/posts/12?tab=photos')
  assert.equal(safeCallbackPath('/', SITE), '/')
  assert.equal(safeCallbackPath('https://places.example.org/admin#top', SITE), '/admin')
  assert.equal(safeCallbackPath(['/admin/users', '/x'], SITE), '/admin/users')
  assert.equal(safeCallbackPath('admin', SITE), '/admin')
})

test('anything that leaves the site falls back', () => {
  const hostile = [
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    'https://evil.example/admin',
    'http://places.example.org/admin',
    'https://places.example.org.evil.example/',
    'https://places.example.org@evil.example/',
    '//places.example.org@evil.example',
    'javascript:alert(1)',
    'data:text/html,hi',
    ' //evil.example',
  ]
  for (const value of hostile) assert.equal(safeCallbackPath(value, SITE), '/admin', JSON.stringify(value))
})

test('what resolves onto the site is reduced to one leading slash', () => {
  assert.equal(safeCallbackPath('/a/..//evil.example', SITE), '/evil.example')
  assert.equal(safeCallbackPath('/%2F%2Fevil.example', SITE), '/%2F%2Fevil.example')
  assert.equal(safeCallbackPath('/%09/evil.example', SITE), '/%09/evil.example')
})

test('no value, or not a string, falls back', () => {
  for (const value of [undefined, null, '', 42, {}]) assert.equal(safeCallbackPath(value, SITE, '/'), '/')
})
