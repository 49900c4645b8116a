// The one permission rule of Places: WordPress's roles, and `edit_post` as its map_meta_cap maps it
// (spec/DECISIONS.md). The REST routes, the admin and the command line all ask here.

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const
export type Role = (typeof ROLES)[number]

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value)
}

type Capability = 'edit_posts' | 'edit_others_posts' | 'edit_published_posts' | 'edit_private_posts'

const ROLE_CAPABILITIES: Record<Role, ReadonlySet<Capability>> = {
  administrator: new Set(['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts']),
  editor: new Set(['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts']),
  author: new Set(['edit_posts', 'edit_published_posts']),
  contributor: new Set(['edit_posts']),
  subscriber: new Set(),
}

export type Actor = { id: number; role: string }
export type PostForCapability = { authorId: number; status: string; statusBeforeTrash: string | null }

/** Whether `actor` may edit `post`. A post that does not exist (null) may be edited by nobody. */
export function canEditPost(actor: Actor | null, post: PostForCapability | null): boolean {
  if (!actor || !post || !isRole(actor.role)) return false
  const caps = ROLE_CAPABILITIES[actor.role]
  // A trashed post counts with the status it had before; one whose earlier status is unknown, as a draft.
  const status = post.status === 'trash' ? (post.statusBeforeTrash ?? 'draft') : post.status
  const isPublic = status === 'publish' || status === 'future'
  const needed: Capability[] = post.authorId === actor.id
    ? [isPublic ? 'edit_published_posts' : 'edit_posts']
    : ['edit_others_posts', ...(isPublic ? (['edit_published_posts'] as const) : []), ...(status === 'private' ? (['edit_private_posts'] as const) : [])]
  return needed.every((cap) => caps.has(cap))
}
