import 'server-only'
import type { Db, Tx } from '../db'
import { ApiError, forbidden, notSignedIn } from '../http/errors'
import { OPERATOR, type Caller } from './callers'
import { canDeletePost, canEditPost, type PostForCapability } from './capabilities'

/** WordPress's meta capabilities on one post: `edit_post` and `delete_post` (trashing and restoring are deleting). */
export type PostAction = 'edit' | 'delete'

/** What the capability check reads of a post: select it with this. */
export const POST_FOR_CAPABILITY = { authorId: true, status: true, statusBeforeTrash: true } as const

/** Whether `caller` may `action` `post`: the operator may do anything to a post that exists. */
export function mayActOnPost(caller: Caller, action: PostAction, post: PostForCapability | null): post is PostForCapability {
  if (caller === OPERATOR) return post !== null
  return action === 'edit' ? canEditPost(caller, post) : canDeletePost(caller, post)
}

/**
 * The one guard in front of what is done to post `postId` (as immich's requireAccess): reads what the check needs
 * and refuses no one with a 401, and with a 403 whoever may not `action` it, also when there is no such post, so that
 * nothing is revealed; only the operator is told the post does not exist. Returns what it read. A transaction that
 * writes locks the row first (lockPosts), so that the answer holds for the write.
 */
export async function requirePostAccess(db: Db | Tx, caller: Caller | null, postId: number, action: PostAction): Promise<PostForCapability> {
  if (!caller) throw notSignedIn()
  const post = await db.post.findUnique({ where: { id: postId }, select: POST_FOR_CAPABILITY })
  if (!post && caller === OPERATOR) throw new ApiError('rest_post_invalid_id', `There is no post ${postId}.`)
  if (!mayActOnPost(caller, action, post)) throw forbidden()
  return post
}
