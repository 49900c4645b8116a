import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  canCreatePosts,
  canDeletePost,
  canEditPost,
  canExport,
  canImport,
  canManageCategories,
  canManageUsers,
  canUploadFiles,
  canSetPostStatus,
  editablePostStatuses,
  hasCapability,
  ROLES,
  type Capability,
  type Role,
} from './capabilities'

const STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const
const ME = 1
const OTHER = 2

// The expected answers, written out here rather than derived from capabilities.ts, so that a wrong entry in its
// table, or a wrong rule, fails: ✓ yes, · no. Typed as records, so tsc fails when a role or a capability is added
// without its row.

/** WordPress's roles as populate_roles() (wp-admin/includes/schema.php) makes them, for each capability Places has. */
const PRIMITIVE: Record<Capability, string> = {
  //                       administrator  editor  author  contributor  subscriber
  edit_posts: '✓          ✓       ✓         ✓            ·',
  edit_others_posts: '✓          ✓       ·         ·            ·',
  edit_published_posts: '✓          ✓       ✓         ·            ·',
  edit_private_posts: '✓          ✓       ·         ·            ·',
  delete_posts: '✓          ✓       ✓         ✓            ·',
  delete_others_posts: '✓          ✓       ·         ·            ·',
  delete_published_posts: '✓          ✓       ✓         ·            ·',
  delete_private_posts: '✓          ✓       ·         ·            ·',
  publish_posts: '✓          ✓       ✓         ·            ·',
  manage_categories: '✓          ✓       ·         ·            ·',
  upload_files: '✓          ✓       ✓         ·            ·',
  list_users: '✓          ·       ·         ·            ·',
  create_users: '✓          ·       ·         ·            ·',
  promote_users: '✓          ·       ·         ·            ·',
  manage_options: '✓          ·       ·         ·            ·',
  export: '✓          ·       ·         ·            ·',
}
const PRIMITIVE_COLUMNS: Role[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber']

/**
 * edit_post and delete_post as WordPress's map_meta_cap gives them (alike): each role on its own post and on
 * another's, by the post's status (a trashed post counts with the status it had before).
 */
const ON_POSTS: Record<Role, string> = {
  //            own: publish  future  draft  pending  private   other: publish  future  draft  pending  private
  administrator: '✓        ✓       ✓       ✓        ✓              ✓        ✓       ✓       ✓        ✓',
  editor: '✓        ✓       ✓       ✓        ✓              ✓        ✓       ✓       ✓        ✓',
  author: '✓        ✓       ✓       ✓        ✓              ·        ·       ·       ·        ·',
  contributor: '·        ·       ✓       ✓        ✓              ·        ·       ·       ·        ·',
  subscriber: '·        ·       ·       ·        ·              ·        ·       ·       ·        ·',
}
const ON_POSTS_COLUMNS = ['publish', 'future', 'draft', 'pending', 'private'] as const

function cells(row: string, count: number): boolean[] {
  const marks = row.trim().split(/\s+/)
  assert.equal(marks.length, count, row)
  return marks.map((mark) => {
    assert.ok(mark === '✓' || mark === '·', mark)
    return mark === '✓'
  })
}

function has(role: Role, capability: Capability): boolean {
  return cells(PRIMITIVE[capability], PRIMITIVE_COLUMNS.length)[PRIMITIVE_COLUMNS.indexOf(role)]!
}

test('every role × every capability Places has, as WordPress gives them', () => {
  assert.deepEqual([...ROLES].sort(), [...PRIMITIVE_COLUMNS].sort())
  for (const role of ROLES) {
    const actor = { id: ME, role }
    for (const capability of Object.keys(PRIMITIVE) as Capability[])
      assert.equal(hasCapability(actor, capability), has(role, capability), `${role} ${capability}`)
    assert.equal(canCreatePosts(actor), has(role, 'edit_posts'), `${role} creates posts`)
    assert.equal(canManageCategories(actor), has(role, 'manage_categories'), `${role} manages categories`)
    assert.equal(canUploadFiles(actor), has(role, 'upload_files'), `${role} uploads files`)
    assert.equal(canManageUsers(actor), has(role, 'list_users'), `${role} manages users`)
    for (const status of STATUSES)
      assert.equal(
        canSetPostStatus(actor, status),
        has(role, status === 'draft' || status === 'pending' ? 'edit_posts' : 'publish_posts'),
        `${role} sets ${status}`,
      )
  }
  for (const actor of [null, { id: ME, role: 'superuser' }]) {
    for (const capability of Object.keys(PRIMITIVE) as Capability[])
      assert.equal(hasCapability(actor, capability), false, `${actor?.role ?? 'anonymous'} ${capability}`)
    assert.equal(canManageCategories(actor), false)
    assert.equal(canUploadFiles(actor), false)
  }
})

test('edit_post and delete_post: every role × own or another’s post × each status, trashed or not', () => {
  for (const role of ROLES) {
    const row = cells(ON_POSTS[role], 2 * ON_POSTS_COLUMNS.length)
    ON_POSTS_COLUMNS.forEach((status, i) => {
      for (const [own, expected] of [
        [true, row[i]!],
        [false, row[ON_POSTS_COLUMNS.length + i]!],
      ] as const) {
        const authorId = own ? ME : OTHER
        for (const post of [
          { authorId, status, statusBeforeTrash: null },
          { authorId, status: 'trash', statusBeforeTrash: status },
        ]) {
          const what = `${role} ${own ? 'own' : 'other'} ${post.status === 'trash' ? `trashed ${status}` : status}`
          assert.equal(canEditPost({ id: ME, role }, post), expected, `edit_post ${what}`)
          assert.equal(canDeletePost({ id: ME, role }, post), expected, `delete_post ${what}`)
        }
      }
    })
  }
})

// docs/api.md, Capabilities ("So …"): administrators and editors may edit any post; authors their own; contributors their own
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

// WordPress's delete_post maps like edit_post, over the delete_* capabilities, which every role holds beside its
// edit_* ones: so whoever may edit a post may delete it, and contributors only their own unpublished posts.
test('delete_post for every role × own or another’s post × status is edit_post', () => {
  for (const role of ROLES) {
    for (const own of [true, false]) {
      for (const status of STATUSES) {
        for (const post of [
          { authorId: own ? ME : OTHER, status, statusBeforeTrash: null },
          { authorId: own ? ME : OTHER, status: 'trash', statusBeforeTrash: status },
        ]) {
          assert.equal(canDeletePost({ id: ME, role }, post), expected(role, own, status), `${role} ${own ? 'own' : 'other'} ${post.status} ${status}`)
        }
      }
    }
  }
  assert.equal(canDeletePost({ id: ME, role: 'administrator' }, null), false)
  assert.equal(canDeletePost(null, { authorId: ME, status: 'draft', statusBeforeTrash: null }), false)
})

test('publish_posts: administrators, editors and authors; contributors may only save drafts and pending posts', () => {
  const publishers: Role[] = ['administrator', 'editor', 'author']
  for (const role of ROLES) {
    const actor = { id: ME, role }
    assert.equal(hasCapability(actor, 'publish_posts'), publishers.includes(role), role)
    for (const status of ['publish', 'future', 'private']) assert.equal(canSetPostStatus(actor, status), publishers.includes(role), `${role} ${status}`)
    for (const status of ['draft', 'pending']) assert.equal(canSetPostStatus(actor, status), role !== 'subscriber', `${role} ${status}`)
    assert.equal(canCreatePosts(actor), role !== 'subscriber', `${role} creates posts`)
  }
  assert.equal(canSetPostStatus(null, 'draft'), false)
  assert.equal(canSetPostStatus({ id: ME, role: 'superuser' }, 'draft'), false)
})

test('list_users, create_users and promote_users: administrators only', () => {
  for (const role of ROLES) {
    const actor = { id: ME, role }
    for (const cap of ['list_users', 'create_users', 'promote_users'] as const)
      assert.equal(hasCapability(actor, cap), role === 'administrator', `${role} ${cap}`)
    assert.equal(canManageUsers(actor), role === 'administrator', role)
  }
  assert.equal(canManageUsers(null), false)
})

test('import: editors and administrators; export (every status, exact locations): administrators only', () => {
  for (const role of ROLES) {
    assert.equal(canImport({ id: ME, role }), role === 'administrator' || role === 'editor', role)
    assert.equal(canExport({ id: ME, role }), role === 'administrator', role)
  }
  assert.equal(canImport(null), false)
  assert.equal(canExport(null), false)
  assert.equal(canImport({ id: ME, role: 'superuser' }), false)
})

test('the statuses a list shows are exactly those canEditPost allows', () => {
  for (const role of [...ROLES, 'superuser']) {
    const actor = { id: ME, role }
    const { own, others } = editablePostStatuses(actor, STATUSES)
    for (const status of STATUSES) {
      assert.equal(own.includes(status), canEditPost(actor, { authorId: ME, status, statusBeforeTrash: null }), `${role} own ${status}`)
      assert.equal(others.includes(status), canEditPost(actor, { authorId: OTHER, status, statusBeforeTrash: null }), `${role} other ${status}`)
    }
  }
  assert.deepEqual(editablePostStatuses(null, STATUSES), { own: [], others: [] })
})
