import assert from 'node:assert/strict'
import { test } from 'node:test'
import { byteRange } from './range'

test('a Range header is read as RFC 9110 writes it', () => {
  const size = 1000
  assert.deepEqual(byteRange('bytes=0-99', size), [0, 99])
  assert.deepEqual(byteRange('bytes=900-', size), [900, 999])
  assert.deepEqual(byteRange('bytes=-100', size), [900, 999])
  assert.deepEqual(byteRange('bytes=-5000', size), [0, 999]) // more than the file: all of it
  assert.deepEqual(byteRange('bytes=990-2000', size), [990, 999]) // past the end: to the end
  assert.deepEqual(byteRange(' bytes=5-5 ', size), [5, 5])
})

test('a range past the end is unsatisfiable; one that does not parse, or several, asks for the whole file', () => {
  assert.equal(byteRange('bytes=1000-', 1000), 'unsatisfiable')
  assert.equal(byteRange('bytes=1000-1005', 1000), 'unsatisfiable')
  assert.equal(byteRange('bytes=-0', 1000), 'unsatisfiable')
  assert.equal(byteRange('bytes=0-0', 0), 'unsatisfiable')
  for (const header of [null, '', 'bytes=', 'bytes=-', 'items=0-5', 'bytes=5-1', 'bytes=0-5,10-20', 'bytes=a-b', 'bytes=1.5-2']) {
    assert.equal(byteRange(header, 1000), null, String(header))
  }
})
