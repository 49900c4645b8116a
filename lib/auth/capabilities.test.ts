import assert from 'node:assert/strict'
import { test } from 'node:test'
import { canEditPost, ROLES, type Role } from './capabilities'

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const
const ME = 1
const OTHER = 2

// DECISIONS.md, "So:": administrators and editors may edit any post; authors their own; contributors their own
// unpublished, unscheduled posts; subscribers and anonymous callers nothing.
function expected(role: Role, own: boolean, status: string): boolean {
  switch (role) {
    case 'administrator':
    case 'editor':
      return true
    case 'author':
      return own
    case 'contributor':
      return own && status !== 'publish' && status !== 'future'
    case 'subscriber':
      return false
  }
}

test('edit_post for every role × own or another’s post × status', () => {
  for (const role of ROLES) {
    for (const own of [true, false]) {
      for (const status of STATUSES) {
        const post = { authorId: own ? ME : OTHER, status, statusBeforeTrash: null }
        assert.equal(canEditPost({ id: ME, role }, post), expected(role, own, status), `${role} ${own ? 'own' : 'other'} ${status}`)
        const trashed = { authorId: own ? ME : OTHER, status: 'trash', statusBeforeTrash: status }
        assert.equal(canEditPost({ id: ME, role }, trashed), expected(role, own, status), `${role} ${own ? 'own' : 'other'} trashed ${status}`)
      }
    }
  }
})

test('nobody edits a post that does not exist; anonymous callers and unknown roles edit nothing', () => {
  assert.equal(canEditPost({ id: ME, role: 'administrator' }, null), false)
  assert.equal(canEditPost(null, { authorId: ME, status: 'draft', statusBeforeTrash: null }), false)
  assert.equal(canEditPost({ id: ME, role: 'superuser' }, { authorId: ME, status: 'draft', statusBeforeTrash: null }), false)
})
