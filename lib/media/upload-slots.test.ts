import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ApiError } from '../http/errors'
import { runUpload, UPLOADS_PER_USER } from './upload-slots'

// The count of each user's uploads at once, without the HTTP around it (e2e/api/upload-limit.spec.ts has that).

/** An upload that ends when the test says so, stored or failed. */
function heldUpload(): { work: () => Promise<string>; end: (outcome: Error | string) => void } {
  let end: (outcome: Error | string) => void = () => {}
  const done = new Promise<string>((resolve, reject) => (end = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome))))
  return { work: () => done, end }
}

const stored = () => Promise.resolve('stored')
const refused = (error: unknown) => error instanceof ApiError && error.status === 429 && error.code === 'too_many_uploads' && Number(error.data.retryAfter) >= 1

test('a user runs 4 uploads at once; the next is refused with a Retry-After, another user is not; however an upload ends, its place is free again', async () => {
  assert.equal(UPLOADS_PER_USER, 4)
  const held = Array.from({ length: UPLOADS_PER_USER }, heldUpload)
  const running = held.map(({ work }) => runUpload(1, work))
  let started = false
  await assert.rejects(
    runUpload(1, () => Promise.resolve((started = true))),
    refused,
  )
  assert.equal(started, false, 'the refused upload never ran')
  assert.equal(await runUpload(2, stored), 'stored')

  held[0]!.end('stored')
  held[1]!.end(new Error('the client went away'))
  const ended = await Promise.allSettled(running.slice(0, 2))
  assert.deepEqual(
    ended.map((outcome) => outcome.status),
    ['fulfilled', 'rejected'],
  )
  // Two places free: two more run, and the one after is refused again.
  const more = [heldUpload(), heldUpload()]
  const moreRunning = more.map(({ work }) => runUpload(1, work))
  await assert.rejects(runUpload(1, stored), refused)
  for (const upload of [...held.slice(2), ...more]) upload.end('stored')
  await Promise.all([...running.slice(2), ...moreRunning])
  // Every place is free: 4 at once run again.
  const again = await Promise.all(Array.from({ length: UPLOADS_PER_USER }, () => runUpload(1, stored)))
  assert.deepEqual(again, Array(UPLOADS_PER_USER).fill('stored'))
})
