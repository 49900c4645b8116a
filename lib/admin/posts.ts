import 'server-only'
import { OPERATOR, type Caller } from '../auth/callers'
import {
  canCreatePosts,
  canDeletePost,
  canEditPost,
  canManageCategories,
  canSetPostStatus,
  editablePostStatuses,
  hasCapability,
  STATUSES_NEEDING_PUBLISH,
  type Actor,
  type PostForCapability,
} from '../auth/capabilities'
import { requirePostAccess, type PostAction } from '../auth/post-access'
import { getConfig } from '../config'
import { cleanContent } from '../content/html'
import { titleText } from '../content/title'
import { getDb, lockPosts, transaction, type Tx } from '../db'
import { Prisma } from '../generated/sqlite/client'
import { zonedDateTime, withZoneOffset } from '../dates'
import { ApiError, forbidden, invalidParams, postInTrash } from '../http/errors'
import { parseOrThrow } from '../http/params'
import { ATTACHMENT_FILES, removeAttachmentFiles } from '../media/attachments'
import { categoryAndDescendants, getCategoryPaths, resolveCategoryPaths } from '../places/categories'
import type { LocationPrecision } from '../places/location-levels'
import { STATUSES } from '../places/post-fields'
import { foldForSearch, searchColumns } from '../places/search'
import { publicColumnsOf } from '../places/visibility'
import { byName, resolveTagNames, setPostTags } from '../places/tags'
import { mayChooseTrip } from '../trips/manage'
import { effectiveStatus } from './schedule'
import { rescheduleNow } from './scheduler'
import { getSiteSettings } from '../site'
import { freeSlug, slugBase } from '../slugs'
import { postFormSchema, type PostInput } from './forms'

export const POSTS_PER_PAGE = 20

/** The list's sortable columns, named as WordPress's edit.php names them in `orderby` */
export const POST_ORDERS = ['date', 'title', 'status'] as const
export type PostOrder = (typeof POST_ORDERS)[number]

export type PostListFilters = {
  search: string
  /** also look in the content, not only title and address */
  searchContent?: boolean
  /** null: every status but trash, as WordPress's "All" */
  status: string | null
  type: string | null
  categoryId: number | null
  page: number
  orderby?: PostOrder
  order?: 'asc' | 'desc'
}

export type PostListItem = {
  id: number
  title: string
  type: string
  slug: string
  status: string
  authorName: string
  publishedAt: string
  hasLocation: boolean
  locationPrecision: LocationPrecision
  attachmentCount: number
}

export type PostList = {
  posts: PostListItem[]
  total: number
  page: number
  pageCount: number
  /** how many posts `actor` may edit in each status (of those the other filters keep), and `all`: all but trash */
  counts: Record<string, number> & { all: number }
}

/** A post's effective status among `statuses` (lib/auth/capabilities.ts: a trashed post counts as it was before). */
function hasEffectiveStatus(statuses: string[]): Prisma.PostWhereInput {
  const live = statuses.filter((status) => status !== 'trash')
  return {
    OR: [
      { status: { in: live } },
      { status: 'trash', statusBeforeTrash: { in: live } },
      // canEditPost's answer for a trashed post whose earlier status is unknown
      ...(statuses.includes('trash') ? [{ status: 'trash', statusBeforeTrash: null }] : []),
    ],
  }
}

/** Exactly the posts `actor` may edit, as a query: the statuses come from canEditPost itself. */
function editableBy(actor: Actor): Prisma.PostWhereInput {
  const { own, others } = editablePostStatuses(actor, STATUSES)
  return {
    OR: [
      { authorId: actor.id, ...hasEffectiveStatus(own) },
      { authorId: { not: actor.id }, ...hasEffectiveStatus(others) },
    ],
  }
}

function orderOf(orderby: PostOrder, order: 'asc' | 'desc'): Prisma.PostOrderByWithRelationInput[] {
  if (orderby === 'title') return [{ title: order }, { id: order }]
  if (orderby === 'status') return [{ status: order }, { publishedAt: 'desc' }, { id: 'desc' }]
  return [{ publishedAt: order }, { id: order }]
}

/**
 * The admin's list of posts: only those `actor` may edit, filtered, sorted (newest first unless asked), one page of
 * them, and the count of each status under the same filters (the status links above the list).
 */
export async function listEditablePosts(actor: Actor, filters: PostListFilters): Promise<PostList> {
  const db = getDb()
  const folded = foldForSearch(filters.search.trim())
  const others: Prisma.PostWhereInput[] = [
    editableBy(actor),
    folded ? { OR: [{ searchText: { contains: folded } }, ...(filters.searchContent ? [{ searchContent: { contains: folded } }] : [])] } : {},
    filters.type ? { type: filters.type } : {},
    filters.categoryId !== null ? { categories: { some: { categoryId: { in: await categoryAndDescendants(db, filters.categoryId) } } } } : {},
  ]
  const where: Prisma.PostWhereInput = { AND: [...others, filters.status ? { status: filters.status } : { status: { not: 'trash' } }] }
  const [total, groups] = await Promise.all([db.post.count({ where }), db.post.groupBy({ by: ['status'], where: { AND: others }, _count: { _all: true } })])
  const counts: PostList['counts'] = { all: 0 }
  for (const group of groups) {
    counts[group.status] = group._count._all
    if (group.status !== 'trash') counts.all += group._count._all
  }
  const pageCount = Math.max(1, Math.ceil(total / POSTS_PER_PAGE))
  const page = Math.min(Math.max(1, filters.page), pageCount)
  const orderby = filters.orderby ?? 'date'
  const rows = await db.post.findMany({
    where,
    orderBy: orderOf(orderby, filters.order ?? (orderby === 'date' ? 'desc' : 'asc')),
    skip: (page - 1) * POSTS_PER_PAGE,
    take: POSTS_PER_PAGE,
    select: {
      id: true,
      title: true,
      type: true,
      slug: true,
      status: true,
      publishedAt: true,
      latitude: true,
      longitude: true,
      locationPrecision: true,
      author: { select: { name: true, email: true } },
      _count: { select: { attachments: true } },
    },
  })
  return {
    total,
    page,
    pageCount,
    counts,
    posts: rows.map((row) => ({
      id: row.id,
      // As the pages show it (docs/content.md, "Titles"); the editor edits it as stored.
      title: titleText(row.title),
      type: row.type,
      slug: row.slug,
      status: row.status,
      authorName: row.author.name || row.author.email,
      publishedAt: row.publishedAt.toISOString(),
      hasLocation: row.latitude !== null && row.longitude !== null,
      locationPrecision: row.locationPrecision as LocationPrecision,
      attachmentCount: row._count.attachments,
    })),
  }
}

export type CategoryOption = { id: number; path: string }

/**
 * The posts whose categories and type `actor` may see named: every post for who may edit others' posts; else the
 * published ones and those `actor` may edit. A name only others' drafts use is told to no one else (SECURITY.md).
 */
function namedFor(actor: Actor): Prisma.PostWhereInput {
  return hasCapability(actor, 'edit_others_posts') ? {} : { OR: [{ status: 'publish' }, editableBy(actor)] }
}

/**
 * The ids of the categories `actor` may see named, or null for every one: those of the posts namedFor `actor`, the
 * unused ones to those who may write posts (to pick), and the ancestors of each (its path names them).
 */
async function visibleCategoryIds(db: Tx, actor: Actor): Promise<Set<number> | null> {
  if (hasCapability(actor, 'edit_others_posts')) return null
  const rows = await db.category.findMany({
    select: { id: true, parentId: true, posts: { where: { post: namedFor(actor) }, take: 1, select: { postId: true } }, _count: { select: { posts: true } } },
  })
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]))
  const shown = new Set<number>()
  for (const row of rows) {
    if (row.posts.length === 0 && !(row._count.posts === 0 && canCreatePosts(actor))) continue
    // The category and its ancestors, up to the root or one already shown (a cycle of parents cannot loop).
    for (let at: number | null | undefined = row.id; at != null && !shown.has(at); at = parentOf.get(at)) shown.add(at)
  }
  return shown
}

/** The categories `actor` may see (visibleCategoryIds), with their paths ("Europe > France"), sorted by path. */
export async function listCategoryOptions(actor: Actor): Promise<CategoryOption[]> {
  const db = getDb()
  const [paths, visible] = await Promise.all([getCategoryPaths(db), visibleCategoryIds(db, actor)])
  return [...paths]
    .filter(([id]) => visible?.has(id) ?? true)
    .map(([id, path]) => ({ id, path }))
    .sort((a, b) => a.path.localeCompare(b.path))
}

/** The post types of the posts namedFor `actor`, and `post`. */
export async function listPostTypes(actor: Actor): Promise<string[]> {
  const rows = await getDb().post.groupBy({ by: ['type'], where: namedFor(actor) })
  return [...new Set(['post', ...rows.map((row) => row.type)])].sort()
}

export type EditablePost = {
  id: number
  title: string
  content: string
  excerpt: string
  status: string
  type: string
  slug: string
  /** the publish date in the site's time zone, as `<input type="datetime-local" step="1">` shows it */
  date: string
  /** the publish date, the instant (ISO 8601, UTC): sent back for `date` while it is unchanged */
  publishedAt: string
  categoryIds: number[]
  /** by name, as typed (lib/places/tags.ts) */
  tags: string[]
  address: string
  locationPrecision: LocationPrecision
  latitude: number | null
  longitude: number | null
  tripId: number | null
  authorName: string
  modifiedAt: string
}

export type PostEditorContext = {
  post: EditablePost
  /** the statuses `actor` may choose: with publish_posts all of them; without, draft and pending (and the current one) */
  allowedStatuses: string[]
  canDelete: boolean
  /** whether `actor` may add categories (manage_categories), or only pick existing ones */
  canAddCategories: boolean
  /** the site's time zone, in which dates are shown and typed */
  timezone: string
}

const EDITABLE_SELECT = {
  id: true,
  title: true,
  content: true,
  excerpt: true,
  status: true,
  statusBeforeTrash: true,
  type: true,
  slug: true,
  publishedAt: true,
  address: true,
  locationPrecision: true,
  latitude: true,
  longitude: true,
  tripId: true,
  authorId: true,
  modifiedAt: true,
  author: { select: { name: true, email: true } },
  categories: { select: { categoryId: true } },
  tags: { select: { tag: { select: { id: true, name: true } } } },
} as const satisfies Prisma.PostSelect

type EditableRow = Prisma.PostGetPayload<{ select: typeof EDITABLE_SELECT }>

function toEditablePost(row: EditableRow, timezone: string): EditablePost {
  return {
    id: row.id,
    // As on the post's page; saved unchanged, the title keeps its references (updatePost).
    title: titleText(row.title),
    content: row.content,
    excerpt: row.excerpt,
    status: row.status,
    type: row.type,
    slug: row.slug,
    date: zonedDateTime(row.publishedAt, timezone),
    publishedAt: row.publishedAt.toISOString(),
    categoryIds: row.categories.map((c) => c.categoryId).sort((a, b) => a - b),
    tags: row.tags
      .map(({ tag }) => tag)
      .sort(byName)
      .map((tag) => tag.name),
    address: row.address,
    locationPrecision: row.locationPrecision as LocationPrecision,
    latitude: row.latitude,
    longitude: row.longitude,
    tripId: row.tripId,
    authorName: row.author.name || row.author.email,
    modifiedAt: row.modifiedAt.toISOString(),
  }
}

async function editorContext(actor: Actor, row: EditableRow): Promise<PostEditorContext> {
  const { timezone } = await getSiteSettings()
  return {
    timezone,
    post: toEditablePost(row, timezone),
    allowedStatuses: STATUSES.filter((status) => status === row.status || canSetPostStatus(actor, status)),
    canDelete: canDeletePost(actor, row),
    canAddCategories: canManageCategories(actor),
  }
}

/** The editor's form as sent: its date, typed without a zone, is the wall clock of the site's time zone. */
export async function parsePostForm(values: unknown): Promise<PostInput> {
  const form = values !== null && typeof values === 'object' ? (values as Record<string, unknown>) : {}
  const { timezone } = await getSiteSettings()
  return parseOrThrow(postFormSchema, typeof form.date === 'string' ? { ...form, date: withZoneOffset(form.date, timezone) } : form)
}

/** A post for the editor, or null when it does not exist or `actor` may not edit it (the page says "not found" to both). */
export async function findEditablePost(actor: Actor, id: number): Promise<PostEditorContext | null> {
  const row = await getDb().post.findUnique({ where: { id }, select: EDITABLE_SELECT })
  if (!row || !canEditPost(actor, row)) return null
  return editorContext(actor, row)
}

/** The first free slug for `wanted` among the posts of `type` other than `exceptId` (lib/slugs.ts's rule). */
async function freePostSlug(tx: Tx, type: string, wanted: string, exceptId?: number): Promise<string> {
  const rows = await tx.post.findMany({
    where: { type, slug: { startsWith: slugBase(wanted) }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { slug: true },
  })
  const taken = new Set(rows.map((row) => row.slug))
  return freeSlug(wanted, (slug) => taken.has(slug))
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002'
}

/** Runs a write that picked a free slug; a post that took the slug meanwhile is a field error, not a 500. */
async function withSlugConflictAsFieldError<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidParams({ slug: 'is used by another post of this type just now; save again' })
    throw error
  }
}

/** A new draft owned by `actor`, dated now; returns its id. */
export async function createDraft(actor: Actor, { title, type }: { title: string; type: string }): Promise<number> {
  if (!canCreatePosts(actor)) throw forbidden()
  return withSlugConflictAsFieldError(async () => {
    const post = await transaction(async (tx) =>
      tx.post.create({
        data: {
          title,
          type,
          slug: await freePostSlug(tx, type, title),
          status: 'draft',
          publishedAt: new Date(),
          authorId: actor.id,
          // No location yet, so nothing public to derive (lib/places/visibility.ts): only the level to start from.
          locationPrecision: getConfig().defaultLocationPrecision,
          ...searchColumns({ title }),
        },
        select: { id: true },
      }),
    )
    return post.id
  })
}

function cannotPublish(status: string): ApiError {
  return new ApiError(
    'rest_cannot_publish',
    'Sorry, you are not allowed to publish posts: save it as a draft, or as pending review for an editor to publish.',
    { params: { status: `you may not make a post ${status}` } },
  )
}

/**
 * Post `id` locked until the transaction ends (SQLite's write lock, PostgreSQL's row lock), then checked for `caller`
 * to `action` it, so that the decision holds for the write that follows: an editor who publishes the post meanwhile
 * makes a contributor's save wait, then be refused. A refused change writes nothing.
 */
async function lockPostFor(tx: Tx, caller: Caller, id: number, action: PostAction): Promise<PostForCapability> {
  await lockPosts(tx, [id])
  return requirePostAccess(tx, caller, id, action)
}

/**
 * Keeps the URL a published post had, as WordPress's _wp_old_slug: when its slug (or type) changes, the old pair
 * answers 301 to the new URL (app/[type]/[slug]/). A later post that takes the old slug wins: its URL is its own.
 */
async function keepOldSlug(tx: Tx, id: number, status: string, next: { type: string; slug: string }): Promise<void> {
  if (status !== 'publish') return
  const { type, slug } = await tx.post.findUniqueOrThrow({ where: { id }, select: { type: true, slug: true } })
  if (type === next.type && slug === next.slug) return
  await tx.postOldSlug.upsert({ where: { type_slug: { type, slug } }, create: { type, slug, postId: id }, update: { postId: id } })
  // Back to an earlier slug: it is the current one again, not an old one
  await tx.postOldSlug.deleteMany({ where: { type: next.type, slug: next.slug } })
}

/** Saves the editor's form. Who may edit the post as it is now decides; publishing also needs publish_posts. */
export async function updatePost(actor: Actor, id: number, input: PostInput): Promise<PostEditorContext> {
  const row = await withSlugConflictAsFieldError(() =>
    transaction(async (tx) => {
      const current = await lockPostFor(tx, actor, id, 'edit')
      const content = cleanContent(input.content, getConfig().siteUrl)
      // The editor shows "&amp;" as "&" (toEditablePost): a title saved as shown is the title stored, as the REST
      // routes give it (docs/content.md, "Titles").
      const stored = (await tx.post.findUniqueOrThrow({ where: { id }, select: { title: true } })).title
      const title = titleText(stored) === input.title ? stored : input.title
      // As wp_insert_post: "publish" with a date to come schedules the post, "future" with a date gone publishes it.
      const status = effectiveStatus(input.status, input.date, new Date())
      const statusChanges = status !== current.status
      // As WordPress's post.php: a post in the Trash is restored before it is edited.
      if (current.status === 'trash' && status === 'trash') throw postInTrash()
      if (statusChanges && !canSetPostStatus(actor, status)) {
        throw (STATUSES_NEEDING_PUBLISH as readonly string[]).includes(status) ? cannotPublish(status) : forbidden()
      }
      // Trashing is deleting in WordPress's terms; the status it had is kept for restoring and for canEditPost.
      if (statusChanges && status === 'trash' && !canDeletePost(actor, current)) throw forbidden()
      const statusBeforeTrash = status !== 'trash' ? null : current.status === 'trash' ? current.statusBeforeTrash : current.status

      // A category the user may not see is as one that does not exist: saving it would show its name in the lists.
      const visible = await visibleCategoryIds(tx, actor)
      const onThePost = new Set((await tx.postCategory.findMany({ where: { postId: id }, select: { categoryId: true } })).map((link) => link.categoryId))
      const known = await tx.category.findMany({ where: { id: { in: input.categoryIds } }, select: { id: true } })
      const allowed = known.filter((category) => visible === null || visible.has(category.id) || onThePost.has(category.id))
      if (allowed.length !== new Set(input.categoryIds).size) throw invalidParams({ categoryIds: 'names a category that no longer exists; reload the page' })
      const created = await resolveCategoryPaths(tx, input.newCategories, { mayCreate: canManageCategories(actor), among: visible })
      const categoryIds = [...new Set([...input.categoryIds, ...created.values()])]
      await tx.postCategory.deleteMany({ where: { postId: id, categoryId: { notIn: categoryIds } } })
      const keptIds = new Set(categoryIds.filter((c) => onThePost.has(c)))
      await tx.postCategory.createMany({ data: categoryIds.filter((c) => !keptIds.has(c)).map((categoryId) => ({ postId: id, categoryId })) })
      await setPostTags(tx, id, input.tags)
      // A trip the user may not choose is as one that does not exist (lib/trips/manage.ts, listTripOptions).
      const trip = await tx.post.findUniqueOrThrow({ where: { id }, select: { tripId: true } })
      if (input.tripId && input.tripId !== trip.tripId && !(await mayChooseTrip(tx, actor, input.tripId))) {
        throw invalidParams({ tripId: 'names a trip that no longer exists; reload the page' })
      }
      const slug = await freePostSlug(tx, input.type, input.slug || input.title, id)
      await keepOldSlug(tx, id, current.status, { type: input.type, slug })
      return tx.post.update({
        where: { id },
        select: EDITABLE_SELECT,
        data: {
          title,
          content,
          excerpt: input.excerpt,
          status,
          statusBeforeTrash,
          // The Trash's clock (lib/admin/trash.ts) starts when the post goes there
          ...(statusChanges ? { trashedAt: status === 'trash' ? new Date() : null } : {}),
          type: input.type,
          slug,
          ...searchColumns({ ...input, title, content }),
          publishedAt: input.date,
          address: input.address,
          locationPrecision: input.locationPrecision,
          latitude: input.latitude,
          longitude: input.longitude,
          ...(input.tripId !== undefined ? { tripId: input.tripId } : {}),
          ...(await publicColumnsOf(tx, input)),
          modifiedAt: new Date(),
        },
      })
    }),
  )
  if (row.status === 'future') rescheduleNow()
  return editorContext(actor, row)
}

/**
 * Moves post `id` to the Trash (WordPress's wp_trash_post): who may delete it may; the status it had is kept for
 * restoring. Returns false when it was in the Trash already.
 */
export async function trashPost(deleter: Caller, id: number): Promise<boolean> {
  return transaction(async (tx) => {
    const current = await lockPostFor(tx, deleter, id, 'delete')
    if (current.status === 'trash') return false
    await tx.post.update({ where: { id }, data: { status: 'trash', statusBeforeTrash: current.status, trashedAt: new Date(), modifiedAt: new Date() } })
    return true
  })
}

/**
 * Takes post `id` out of the Trash with the status it had (a draft when that is unknown), as wp_untrash_post, which
 * also asks for delete_post. A scheduled post whose time passed meanwhile comes back published (lib/admin/schedule.ts).
 */
export async function restorePost(actor: Actor, id: number): Promise<void> {
  await transaction(async (tx) => {
    const current = await lockPostFor(tx, actor, id, 'delete')
    if (current.status !== 'trash') return
    const { publishedAt } = await tx.post.findUniqueOrThrow({ where: { id }, select: { publishedAt: true } })
    const status = effectiveStatus(current.statusBeforeTrash ?? 'draft', publishedAt, new Date())
    await tx.post.update({ where: { id }, data: { status, statusBeforeTrash: null, trashedAt: null, modifiedAt: new Date() } })
  })
  rescheduleNow()
}

/**
 * Publishes post `id` or makes it a draft, as the editor's Status would with its date unchanged (a date to come
 * schedules it); a post in the Trash is restored first. Answers the status it has now, or null when it had it already.
 */
export async function setPostStatus(actor: Actor, id: number, requested: 'publish' | 'draft'): Promise<string | null> {
  if (!canSetPostStatus(actor, requested)) throw forbidden()
  const status = await transaction(async (tx) => {
    const current = await lockPostFor(tx, actor, id, 'edit')
    if (current.status === 'trash') throw postInTrash()
    const { publishedAt } = await tx.post.findUniqueOrThrow({ where: { id }, select: { publishedAt: true } })
    const status = effectiveStatus(requested, publishedAt, new Date())
    if (status === current.status) return null
    await tx.post.update({ where: { id }, data: { status, modifiedAt: new Date() } })
    return status
  })
  if (status === 'future') rescheduleNow()
  return status
}

/** Adds post `id` to category `categoryId` (an existing one), or tag `tagName` (made when new); false when it was there. */
export async function addPostTerm(actor: Actor, id: number, term: { categoryId: number } | { tagName: string }): Promise<boolean> {
  return transaction(async (tx) => {
    const current = await lockPostFor(tx, actor, id, 'edit')
    if (current.status === 'trash') throw postInTrash()
    let added: boolean
    if ('categoryId' in term) {
      const key = { postId_categoryId: { postId: id, categoryId: term.categoryId } }
      added = !(await tx.postCategory.findUnique({ where: key }))
      if (added) await tx.postCategory.create({ data: { postId: id, categoryId: term.categoryId } })
    } else {
      const [tagId] = (await resolveTagNames(tx, [term.tagName])).values()
      added = !(await tx.postTag.findUnique({ where: { postId_tagId: { postId: id, tagId: tagId! } } }))
      if (added) await tx.postTag.create({ data: { postId: id, tagId: tagId! } })
    }
    if (added) await tx.post.update({ where: { id }, data: { modifiedAt: new Date() } })
    return added
  })
}

function notInTrash(): ApiError {
  return new ApiError('rest_not_in_trash', 'Only a post in the Trash can be deleted permanently: move it to the Trash first.')
}

/**
 * Deletes a post for good, with its attachments (WordPress's delete_post decides who may): the rows in one
 * transaction that checks the permission on the locked row, then the files, once nothing refers to them. A user
 * deletes only from the Trash, as WordPress's screens; the operator anything (`wp post delete --force`). Returns how
 * many attachments went with it. With `trashedBefore`, only a post in the Trash since before then is deleted.
 */
export async function deletePost(deleter: Caller, id: number, { trashedBefore }: { trashedBefore?: Date } = {}): Promise<number> {
  const attachments = await transaction(async (tx) => {
    const current = await lockPostFor(tx, deleter, id, 'delete')
    if (deleter !== OPERATOR && current.status !== 'trash') throw notInTrash()
    // The Trash emptying itself (lib/admin/trash.ts): only a post still there since before then, on the locked row
    if (trashedBefore && (await tx.post.count({ where: { id, status: 'trash', trashedAt: { lte: trashedBefore } } })) === 0) throw notInTrash()
    const attachments = await tx.attachment.findMany({ where: { postId: id }, select: ATTACHMENT_FILES })
    await tx.post.delete({ where: { id } }) // its attachments' rows go with it (ON DELETE CASCADE)
    return attachments
  })
  await removeAttachmentFiles(attachments)
  return attachments.length
}
