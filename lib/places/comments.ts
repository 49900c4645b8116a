import 'server-only'
import { getDb } from '../db'

// A post's comments, imported from WordPress (README.md, "From WordPress"), shown read-only under it: no new comment
// is taken, so there is no form, no email and nothing a visitor can write.

/** A comment as the post page shows it, with its replies. */
export type CommentNode = { id: number; authorName: string; authorUrl: string; content: string; createdAt: Date; replies: CommentNode[] }

/** The most comments a page shows: past that, the oldest this many (a page stays a page). */
export const MAX_COMMENTS = 1000

/** What a post page shows of its comments: the threads, how many comments they hold, how many there are. */
export type PostComments = { comments: CommentNode[]; shown: number; total: number }

/** The comments of post `id`, oldest first, each reply under the comment it answers. */
export async function findPostComments(postId: number): Promise<PostComments> {
  const db = getDb()
  const [rows, total] = await Promise.all([
    db.comment.findMany({
      where: { postId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: MAX_COMMENTS,
      select: { id: true, parentId: true, authorName: true, authorUrl: true, content: true, createdAt: true },
    }),
    db.comment.count({ where: { postId } }),
  ])
  const nodes = new Map(rows.map(({ parentId: _parent, ...row }) => [row.id, { ...row, replies: [] as CommentNode[] }]))
  const comments: CommentNode[] = []
  for (const row of rows) {
    const parent = row.parentId === null ? undefined : nodes.get(row.parentId)
    ;(parent ? parent.replies : comments).push(nodes.get(row.id)!)
  }
  return { comments, shown: rows.length, total }
}
