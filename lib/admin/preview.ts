import 'server-only'
import { OPERATOR, type Caller } from '../auth/callers'
import type { Actor } from '../auth/capabilities'
import { mayActOnPost, requirePostAccess } from '../auth/post-access'
import { getConfig } from '../config'
import { cleanContent } from '../content/html'
import { getDb } from '../db'
import { postPageOf, readPostPageRow, type PostPage } from '../places/post-page'
import type { PostInput } from './forms'

// Preview, as WordPress's: the editor's form as it is now, unsaved, shown at the post's own URL with ?preview=true to
// whoever may edit the post, and to no one else (README, "Editing a post"). The form's title, content and date are
// kept apart, one copy per user and post (post_previews), until the post is saved after them.

/** Keeps the form's title, content and date as `actor`'s preview of post `id`; returns the URL that shows it. */
export async function savePreview(actor: Actor, id: number, input: Pick<PostInput, 'title' | 'content' | 'date'>): Promise<string> {
  const db = getDb()
  await requirePostAccess(db, actor, id, 'edit')
  const copy = { title: input.title, content: cleanContent(input.content, getConfig().siteUrl), publishedAt: input.date, createdAt: new Date() }
  const post = await db.post.update({
    where: { id },
    // Written through the post, so that a post deleted meanwhile fails here rather than leaving a copy of nothing.
    data: { previews: { upsert: { where: { postId_userId: { postId: id, userId: actor.id } }, create: { userId: actor.id, ...copy }, update: copy } } },
    select: { type: true, slug: true },
  })
  return `/${encodeURIComponent(post.type)}/${encodeURIComponent(post.slug)}?preview=true`
}

/**
 * The page of post `type`/`slug` as `caller` previews it: whatever its status but the Trash, with their unsaved
 * copy when it is newer than the post; null when there is no such post or `caller` may not edit it.
 */
export async function findPreviewPage(caller: Caller | null, type: string, slug: string): Promise<PostPage | null> {
  if (!caller) return null
  const post = await readPostPageRow(type, slug)
  if (!post || post.status === 'trash' || !mayActOnPost(caller, 'edit', post)) return null
  const copy = caller === OPERATOR ? null : await getDb().postPreview.findUnique({ where: { postId_userId: { postId: post.id, userId: caller.id } } })
  if (!copy || copy.createdAt <= post.modifiedAt) return postPageOf(post)
  return postPageOf({ ...post, title: copy.title, content: copy.content, publishedAt: copy.publishedAt })
}
