// The one permission rule of Places: WordPress's roles, their primitive capabilities, and the meta capabilities
// `edit_post` and `delete_post` as its map_meta_cap maps them (docs/api.md, Capabilities). The REST routes, the admin and
// the command line all ask here.

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const
export type Role = (typeof ROLES)[number]

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value)
}

export type Capability =
  | 'edit_posts'
  | 'edit_others_posts'
  | 'edit_published_posts'
  | 'edit_private_posts'
  | 'delete_posts'
  | 'delete_others_posts'
  | 'delete_published_posts'
  | 'delete_private_posts'
  | 'publish_posts'
  | 'manage_categories'
  | 'upload_files'
  | 'list_users'
  | 'create_users'
  | 'promote_users'
  | 'manage_options'
  | 'export'

// As WordPress's populate_roles(), restricted to what Places has.
const ROLE_CAPABILITIES: Record<Role, ReadonlySet<Capability>> = {
  administrator: new Set([
    'edit_posts',
    'edit_others_posts',
    'edit_published_posts',
    'edit_private_posts',
    'delete_posts',
    'delete_others_posts',
    'delete_published_posts',
    'delete_private_posts',
    'publish_posts',
    'manage_categories',
    'upload_files',
    'list_users',
    'create_users',
    'promote_users',
    'manage_options',
    'export',
  ]),
  editor: new Set([
    'edit_posts',
    'edit_others_posts',
    'edit_published_posts',
    'edit_private_posts',
    'delete_posts',
    'delete_others_posts',
    'delete_published_posts',
    'delete_private_posts',
    'publish_posts',
    'manage_categories',
    'upload_files',
  ]),
  author: new Set(['edit_posts', 'edit_published_posts', 'delete_posts', 'delete_published_posts', 'publish_posts', 'upload_files']),
  contributor: new Set(['edit_posts', 'delete_posts']),
  subscriber: new Set(),
}

export type Actor = { id: number; role: string }
export type PostForCapability = { authorId: number; status: string; statusBeforeTrash: string | null }

/** Whether `actor` has a primitive capability; anonymous callers and unknown roles have none. */
export function hasCapability(actor: Actor | null, capability: Capability): boolean {
  return !!actor && isRole(actor.role) && ROLE_CAPABILITIES[actor.role].has(capability)
}

/**
 * map_meta_cap for `edit_post` and `delete_post`, which WordPress maps alike: on one's own post the family's
 * `_published_posts` when it is published or scheduled, else `_posts`; on another's `_others_posts`, plus
 * `_published_posts` when published or scheduled, plus `_private_posts` when private.
 */
function mayActOnPost(family: 'edit' | 'delete', actor: Actor | null, post: PostForCapability | null): boolean {
  if (!actor || !post || !isRole(actor.role)) return false
  // A trashed post counts with the status it had before; one whose earlier status is unknown, as a draft.
  const status = post.status === 'trash' ? (post.statusBeforeTrash ?? 'draft') : post.status
  const isPublic = status === 'publish' || status === 'future'
  const needed: Capability[] =
    post.authorId === actor.id
      ? [isPublic ? `${family}_published_posts` : `${family}_posts`]
      : [
          `${family}_others_posts`,
          ...(isPublic ? [`${family}_published_posts` as const] : []),
          ...(status === 'private' ? [`${family}_private_posts` as const] : []),
        ]
  return needed.every((cap) => hasCapability(actor, cap))
}

/** Whether `actor` may edit `post`. A post that does not exist (null) may be edited by nobody. */
export function canEditPost(actor: Actor | null, post: PostForCapability | null): boolean {
  return mayActOnPost('edit', actor, post)
}

/**
 * Whether `actor` may delete `post` (WordPress's `delete_post`). The delete_* capabilities sit beside the edit_*
 * ones in every role, so who may edit a post may delete it: contributors only their own unpublished posts.
 */
export function canDeletePost(actor: Actor | null, post: PostForCapability | null): boolean {
  return mayActOnPost('delete', actor, post)
}

/** Whether `actor` may write new posts at all (`edit_posts`). */
export function canCreatePosts(actor: Actor | null): boolean {
  return hasCapability(actor, 'edit_posts')
}

/**
 * The statuses that make a post visible or scheduled, or private: setting them needs `publish_posts`, as in
 * WordPress, where a contributor's "Publish" becomes "Submit for review" (pending).
 */
export const STATUSES_NEEDING_PUBLISH = ['publish', 'future', 'private'] as const

/** Whether `actor` may give a post this status. */
export function canSetPostStatus(actor: Actor | null, status: string): boolean {
  return (STATUSES_NEEDING_PUBLISH as readonly string[]).includes(status) ? hasCapability(actor, 'publish_posts') : hasCapability(actor, 'edit_posts')
}

/**
 * Whether `actor` may upload images at all (`upload_files`: authors and up, as WordPress; contributors write posts
 * but send no files). Attaching one to a post needs edit_post on that post too.
 */
export function canUploadFiles(actor: Actor | null): boolean {
  return hasCapability(actor, 'upload_files')
}

/** Whether `actor` may add categories (administrators and editors, as WordPress's manage_categories). */
export function canManageCategories(actor: Actor | null): boolean {
  return hasCapability(actor, 'manage_categories')
}

/** Whether `actor` may change the site's title, tagline, language and time zone (administrators: manage_options). */
export function canManageSettings(actor: Actor | null): boolean {
  return hasCapability(actor, 'manage_options')
}

/** Whether `actor` may download the whole site, every status and exact locations (administrators: WordPress's export). */
export function canExport(actor: Actor | null): boolean {
  return hasCapability(actor, 'export')
}

/**
 * Whether `actor` may import files of places as posts, by anyone and of any status, creating categories and tags
 * (editors and administrators: the admin's Import screen). A WordPress export also adds its authors as users:
 * canManageUsers decides that.
 */
export function canImport(actor: Actor | null): boolean {
  return hasCapability(actor, 'edit_others_posts') && hasCapability(actor, 'publish_posts') && hasCapability(actor, 'manage_categories')
}

/**
 * Whether `actor` may change and delete trips (docs/trips.md): a trip shows everyone's posts along it, so it needs
 * what editing others' published posts needs (editors and administrators).
 */
export function canManageTrips(actor: Actor | null): boolean {
  return hasCapability(actor, 'edit_others_posts') && hasCapability(actor, 'publish_posts')
}

/** Whether `actor` may add and remove privacy zones (administrators: WordPress's manage_options, the site's settings). */
export function canManageZones(actor: Actor | null): boolean {
  return hasCapability(actor, 'manage_options')
}

/** Whether `actor` may see the list of users, add users and change their roles (administrators). */
export function canManageUsers(actor: Actor | null): boolean {
  return hasCapability(actor, 'list_users') && hasCapability(actor, 'create_users') && hasCapability(actor, 'promote_users')
}

/**
 * Which posts `actor` may edit, as sets of effective statuses (a trashed post's earlier status) for their own posts
 * and for others': what a list query needs to show exactly the posts canEditPost allows. Derived from canEditPost
 * itself, so the two cannot disagree.
 */
export function editablePostStatuses(actor: Actor | null, statuses: readonly string[]): { own: string[]; others: string[] } {
  const editable = (authorId: number) => statuses.filter((status) => actor && canEditPost(actor, { authorId, status, statusBeforeTrash: null }))
  const me = actor?.id ?? 0
  return { own: editable(me), others: editable(me + 1) } // any id but the actor's stands for "another author"
}
