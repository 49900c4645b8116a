import 'server-only'
import { OPERATOR } from '../auth/callers'
import { canDeletePost, type Actor } from '../auth/capabilities'
import { POST_FOR_CAPABILITY } from '../auth/post-access'
import { getConfig } from '../config'
import { getDb } from '../db'
import { ApiError } from '../http/errors'
import { runPeriodically } from '../jobs'
import { deletePost } from './posts'

// Emptying the Trash, as WordPress does it: on demand ("Empty Trash" in the admin's Trash view), and by itself for
// posts trashed more than EMPTY_TRASH_DAYS ago (wp_scheduled_delete), each post through deletePost, photos and all.

/** The posts in the Trash, of `type` or of every type, that `actor` may delete for good (canDeletePost decides). */
async function trashToEmpty(actor: Actor, type: string | null): Promise<number[]> {
  const rows = await getDb().post.findMany({
    where: { status: 'trash', ...(type === null ? {} : { type }) },
    orderBy: { id: 'asc' },
    select: { id: true, ...POST_FOR_CAPABILITY },
  })
  return rows.filter((row) => canDeletePost(actor, row)).map((row) => row.id)
}

/** How many posts "Empty Trash" would delete for `actor`: the number its confirmation states. */
export async function countTrashToEmpty(actor: Actor, type: string | null): Promise<number> {
  return (await trashToEmpty(actor, type)).length
}

export type EmptiedTrash = {
  posts: number
  photos: number
  /** posts restored, or deleted by someone else, between the list and their turn: left as they are */
  skipped: number
}

/**
 * "Empty Trash" (WordPress's delete_all on edit.php, for one post type or all): deletes for good every post in the
 * Trash that `actor` may delete, each as "Delete permanently" does (deletePost: its row checked and locked, then its
 * photos' files), so an author empties only their own.
 */
export async function emptyTrash(actor: Actor, type: string | null): Promise<EmptiedTrash> {
  const emptied: EmptiedTrash = { posts: 0, photos: 0, skipped: 0 }
  for (const id of await trashToEmpty(actor, type)) {
    try {
      emptied.photos += await deletePost(actor, id)
      emptied.posts++
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      emptied.skipped++
    }
  }
  return emptied
}

const DAY_MS = 86_400_000

/**
 * Deletes for good the posts trashed more than EMPTY_TRASH_DAYS before `now` (none when it is 0), as the operator:
 * nobody asked, so no one's rights apply. Returns how many went.
 */
export async function emptyOldTrash(now: Date = new Date()): Promise<number> {
  const days = getConfig().emptyTrashDays
  if (days === 0) return 0
  const cutoff = new Date(now.getTime() - days * DAY_MS)
  const due = await getDb().post.findMany({
    where: { status: 'trash', trashedAt: { lte: cutoff } },
    orderBy: { id: 'asc' },
    select: { id: true },
  })
  let deleted = 0
  for (const { id } of due) {
    try {
      await deletePost(OPERATOR, id, { trashedBefore: cutoff })
      deleted++
    } catch (error) {
      // Restored or deleted meanwhile (the Trash view, another instance's round): left as it is now
      if (!(error instanceof ApiError)) throw error
    }
  }
  return deleted
}

/**
 * Empties the Trash of what is overdue every hour, as WordPress's daily wp_scheduled_delete, on one of the instances
 * that share the database (lib/jobs.ts); at start when none did in the last hour (a server that was down catches up).
 */
export function startTrashEmptier(): void {
  runPeriodically('empty-trash', 3_600_000, async () => {
    const deleted = await emptyOldTrash()
    return deleted > 0 ? `emptied ${deleted} post${deleted === 1 ? '' : 's'} from the Trash (EMPTY_TRASH_DAYS)` : null
  })
}
