import 'server-only'
import { getDb } from '../db'
import { isPostTypeKey } from './schemas'

/**
 * Where an old URL of a post went (WordPress's _wp_old_slug, kept by lib/admin/posts.ts and the WordPress import):
 * the path of the post's current page when it is published now, else null, so that an old URL says no more of an unpublished
 * post than any unknown URL does (404).
 */
export async function findOldSlugTarget(type: string, slug: string): Promise<string | null> {
  if (!isPostTypeKey(type) || slug.includes('\0')) return null
  const old = await getDb().postOldSlug.findUnique({
    where: { type_slug: { type, slug } },
    select: { post: { select: { type: true, slug: true, status: true } } },
  })
  if (!old || old.post.status !== 'publish') return null
  return `/${encodeURIComponent(old.post.type)}/${encodeURIComponent(old.post.slug)}`
}
