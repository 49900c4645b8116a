import 'server-only'
import { canCreatePosts, canSetPostStatus, type Actor } from '../auth/capabilities'
import { mayActOnPost, POST_FOR_CAPABILITY } from '../auth/post-access'
import { titleText } from '../content/title'
import { getDb } from '../db'
import { ApiError, forbidden, invalidParams } from '../http/errors'
import { tagNameSchema } from '../places/post-fields'
import { addPostTerm, restorePost, setPostStatus, trashPost } from './posts'

// The posts list's bulk actions (README, "The admin"). Each selected post is authorised alone, by the rules of the
// editor and of the row actions (lib/admin/posts.ts, which lock the row and check again), in a transaction of its own:
// one refused changes nothing of the others. A post the user may not edit is skipped by its id alone: nothing of it is
// told, and nothing is written for it.

export const BULK_EDITS = ['trash', 'restore', 'publish', 'draft', 'category', 'tag'] as const
export type BulkEdit = (typeof BULK_EDITS)[number]

export type BulkOutcome = {
  id: number
  /** null where the user may not edit the post */
  title: string | null
  outcome: 'done' | 'unchanged' | 'skipped'
  /** what happened, in a few words, for people */
  note: string
}
export type BulkReport = { done: number; unchanged: number; skipped: number; posts: BulkOutcome[] }

/** What a bulk action adds: a category (by id) or a tag (by name). */
export type BulkTerm = { categoryId?: number; tagName?: string }

const STATUS_WORDS: Record<string, string> = { publish: 'published', future: 'scheduled', draft: 'now a draft' }

/** The change `edit` makes to one post the user may edit: its note, or null when there was nothing to change. */
async function editOne(actor: Actor, id: number, edit: BulkEdit, term: BulkTerm, status: string): Promise<string | null> {
  switch (edit) {
    case 'trash':
      return (await trashPost(actor, id)) ? 'moved to the Trash' : null
    case 'restore':
      if (status !== 'trash') return null
      await restorePost(actor, id)
      return 'restored from the Trash'
    case 'publish':
    case 'draft': {
      const now = await setPostStatus(actor, id, edit)
      return now === null ? null : (STATUS_WORDS[now] ?? now)
    }
    case 'category':
      return (await addPostTerm(actor, id, { categoryId: term.categoryId! })) ? 'added to the category' : null
    case 'tag':
      return (await addPostTerm(actor, id, { tagName: term.tagName! })) ? 'tagged' : null
  }
}

const UNCHANGED: Record<BulkEdit, string> = {
  trash: 'in the Trash already',
  restore: 'not in the Trash',
  publish: 'published already',
  draft: 'a draft already',
  category: 'in the category already',
  tag: 'tagged so already',
}

/** Applies `edit` to each of `postIds`, as `actor` may; says what was done to each, and what was not and why. */
export async function bulkEditPosts(actor: Actor, postIds: readonly number[], edit: BulkEdit, term: BulkTerm = {}): Promise<BulkReport> {
  // Refused before any post: who may write no post at all, and a contributor's Publish (WordPress's publish_posts).
  if (!canCreatePosts(actor) || (edit === 'publish' && !canSetPostStatus(actor, 'publish'))) throw forbidden()
  const db = getDb()
  if (edit === 'category' && (term.categoryId === undefined || !(await db.category.findUnique({ where: { id: term.categoryId }, select: { id: true } })))) {
    throw invalidParams({ categoryId: 'choose a category' })
  }
  if (edit === 'tag') {
    const parsed = tagNameSchema.safeParse(term.tagName ?? '')
    if (!parsed.success) throw invalidParams({ tagName: parsed.error.issues[0]!.message })
    term = { tagName: parsed.data }
  }
  const posts: BulkOutcome[] = []
  for (const id of new Set(postIds)) {
    const post = await db.post.findUnique({ where: { id }, select: { ...POST_FOR_CAPABILITY, title: true } })
    if (!mayActOnPost(actor, 'edit', post)) {
      posts.push({ id, title: null, outcome: 'skipped', note: 'you may not edit it' })
      continue
    }
    const title = titleText(post.title)
    try {
      const note = await editOne(actor, id, edit, term, post.status)
      posts.push(note === null ? { id, title, outcome: 'unchanged', note: UNCHANGED[edit] } : { id, title, outcome: 'done', note })
    } catch (error) {
      // Changed meanwhile (trashed, given to another author) or in the Trash: said, and the others go on.
      if (!(error instanceof ApiError) || error.code === 'rest_invalid_param') throw error
      posts.push({ id, title, outcome: 'skipped', note: error.code === 'rest_post_in_trash' ? 'in the Trash: restore it first' : 'you may not do that to it' })
    }
  }
  const count = (outcome: BulkOutcome['outcome']) => posts.filter((post) => post.outcome === outcome).length
  return { done: count('done'), unchanged: count('unchanged'), skipped: count('skipped'), posts }
}
