import type { Metadata } from 'next'
import { z } from 'zod'
import { findEditablePost, listCategoryOptions, listEditablePosts, listPostTypes, POST_ORDERS, type PostOrder } from '@/lib/admin/posts'
import { requireSessionActor } from '@/lib/admin/session'
import { countTrashToEmpty } from '@/lib/admin/trash'
import { canCreatePosts, canManageTrips, canSetPostStatus } from '@/lib/auth/capabilities'
import { wallMinute } from '@/lib/dates'
import { getSiteSettings } from '@/lib/site'
import { postTypeSchema, STATUSES } from '@/lib/places/post-fields'
import { listTripOptions } from '@/lib/trips/manage'
import { BulkActions, BulkSelection, SelectAllPosts, SelectPost } from './_components/bulk-actions'
import { STATUS_LABELS } from './_components/status-labels'
import { EmptyTrash, PostRowActions, TrashedNotice, TrashRowActions } from './_components/trash-actions'
import { LOCATION_PRECISION_TEXT } from '@/lib/places/location-levels'
import { CategoryOptions } from './_components/category-options'

export const metadata: Metadata = { title: 'Posts' }

// Anything unparseable in the query string is dropped rather than refused: these are filters someone typed.
const filtersSchema = z.object({
  q: z.string().trim().max(200).catch(''),
  content: z.literal('1').nullable().catch(null),
  status: z.enum(STATUSES).nullable().catch(null),
  type: postTypeSchema.nullable().catch(null),
  category: z.coerce.number().int().positive().max(2_147_483_647).nullable().catch(null),
  page: z.coerce.number().int().positive().max(1_000_000).catch(1),
  orderby: z.enum(POST_ORDERS).nullable().catch(null),
  order: z.enum(['asc', 'desc']).nullable().catch(null),
  trashed: z.coerce.number().int().positive().max(2_147_483_647).nullable().catch(null),
  restored: z.coerce.number().int().positive().max(2_147_483_647).nullable().catch(null),
})

// The status links above the list, in WordPress's order and words
const STATUS_LINKS: [string, string][] = [
  ['publish', 'Published'],
  ['future', 'Scheduled'],
  ['draft', 'Drafts'],
  ['pending', 'Pending'],
  ['private', 'Private'],
  ['trash', 'Trash'],
]

const SORTABLE: Record<PostOrder, string> = { title: 'Title', date: 'Date', status: 'Status' }

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** The page numbers to show: the first, the last, and two either side of `page`, with null for a gap. */
function pageNumbers(page: number, pageCount: number): (number | null)[] {
  const shown = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pageCount])].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b)
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1]! > 1 ? [null, n] : [n]))
}

// GET /admin – the posts the signed-in user may edit: status counts, search, filters, sorting, pages
export default async function PostsPage({ searchParams }: PageProps<'/admin'>) {
  const params = await searchParams
  const query = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (first(v) === undefined ? [] : [[k, first(v)!]])))
  const actor = await requireSessionActor(`/admin${query.size ? `?${query}` : ''}`)
  const filters = filtersSchema.parse(Object.fromEntries([...query].filter(([, v]) => v !== '')))
  query.delete('trashed')
  query.delete('restored')
  const orderby = filters.orderby ?? 'date'
  const order = filters.order ?? (orderby === 'date' ? 'desc' : 'asc')
  const [list, categories, types, { timezone }] = await Promise.all([
    listEditablePosts(actor, {
      search: filters.q,
      searchContent: filters.content === '1',
      status: filters.status,
      type: filters.type,
      categoryId: filters.category,
      page: filters.page,
      orderby,
      order,
    }),
    listCategoryOptions(actor),
    listPostTypes(actor),
    getSiteSettings(),
  ])
  const link = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(query)
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key)
      else next.set(key, value)
    }
    return next.size ? `/admin?${next}` : '/admin'
  }
  // "Moved to Trash. Undo" only for a post this user may edit that is in the Trash: a link with any id offers nothing.
  const trashed = filters.trashed === null ? null : await findEditablePost(actor, filters.trashed)
  // Undo's answer, kept on the page it leads to (the notice that offered Undo leaves with ?trashed=).
  const restored = filters.restored === null ? null : await findEditablePost(actor, filters.restored)
  const filtered = filters.q || filters.type || filters.category
  const inTrash = filters.status === 'trash'
  // As WordPress's Empty Trash: the list's type, or every type; the search and category filters do not narrow it.
  const toEmpty = inTrash ? await countTrashToEmpty(actor, filters.type) : 0
  return (
    <>
      <div className="admin-heading">
        <h1>Posts</h1>
        {canCreatePosts(actor) && (
          <a className="button" href="/admin/posts/new">
            New post
          </a>
        )}
      </div>
      {trashed?.post.status === 'trash' && <TrashedNotice key={trashed.post.id} id={trashed.post.id} />}
      {restored && restored.post.status !== 'trash' && (
        <p role="status" className="notice">
          “{restored.post.title || '(no title)'}” was restored from the Trash.
        </p>
      )}
      <nav aria-label="Posts by status">
        <ul className="status-links">
          <li>
            <a href={link({ status: null, page: null })} aria-current={filters.status === null ? 'page' : undefined}>
              All <span className="count">({list.counts.all})</span>
            </a>
          </li>
          {STATUS_LINKS.filter(([status]) => status === 'publish' || (list.counts[status] ?? 0) > 0 || status === filters.status).map(([status, label]) => (
            <li key={status}>
              <a href={link({ status, page: null })} aria-current={filters.status === status ? 'page' : undefined}>
                {label} <span className="count">({list.counts[status] ?? 0})</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form className="filters" method="get" action="/admin" role="search" aria-label="Filter posts">
        {filters.status && <input type="hidden" name="status" value={filters.status} />}
        <label>
          Search titles and addresses
          <input type="search" name="q" defaultValue={filters.q} />
        </label>
        <label className="checkbox">
          <input type="checkbox" name="content" value="1" defaultChecked={filters.content === '1'} /> Search content too
        </label>
        <label>
          Type
          <select name="type" defaultValue={filters.type ?? ''}>
            <option value="">Any type</option>
            {types.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select name="category" defaultValue={filters.category ?? ''}>
            <option value="">Any category</option>
            <CategoryOptions categories={categories} />
          </select>
        </label>
        <button type="submit">Filter</button>
        {filtered && <a href={filters.status ? `/admin?status=${filters.status}` : '/admin'}>Clear filters</a>}
      </form>
      <p className="muted" aria-live="polite">
        {list.total === 0
          ? inTrash
            ? 'The Trash is empty.'
            : 'No posts you may edit match.'
          : `${list.total} post${list.total === 1 ? '' : 's'} you may edit${filtered ? ' match' : ''}${inTrash ? ' in the Trash' : ''}; page ${list.page} of ${list.pageCount}.`}
      </p>
      {inTrash && <EmptyTrash count={toEmpty} type={filters.type} />}
      {/* Kept when the list is empty: the summary of an action that emptied it stays. In the Trash the one bulk action
          is Restore: its posts are restored before they are changed. */}
      <BulkSelection ids={list.posts.map((post) => post.id)}>
        <BulkActions
          inTrash={inTrash}
          canPublish={canSetPostStatus(actor, 'publish')}
          categories={categories}
          trips={canManageTrips(actor) ? await listTripOptions(actor, null) : []}
        />
        {list.posts.length > 0 && (
          <div className="post-table-wrap">
            <table className="post-table">
              <thead>
                <tr>
                  <th scope="col" className="col-select">
                    <SelectAllPosts />
                  </th>
                  {(['title', 'type', 'status', 'author', 'date', 'location', 'media'] as const).map((column) => {
                    if (!(column in SORTABLE)) {
                      const label = { type: 'Type', author: 'Author', location: 'Location', media: 'Media' }[column as 'type']
                      return (
                        <th key={column} scope="col" className={`col-${column}`}>
                          {label}
                        </th>
                      )
                    }
                    const sortable = column as PostOrder
                    const current = orderby === sortable
                    const nextOrder = current ? (order === 'asc' ? 'desc' : 'asc') : sortable === 'date' ? 'desc' : 'asc'
                    return (
                      <th key={column} scope="col" className={`col-${column}`} aria-sort={current ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
                        <a href={link({ orderby: sortable, order: nextOrder, page: null })}>
                          {SORTABLE[sortable]}
                          {sortable === 'date' && ` (${timezone})`}
                          {current && <span aria-hidden="true">{order === 'asc' ? ' ▲' : ' ▼'}</span>}
                        </a>
                      </th>
                    )
                  })}
                </tr>
              </thead>
              <tbody>
                {list.posts.map((post) => (
                  <tr key={post.id}>
                    <td className="col-select">
                      <SelectPost id={post.id} title={post.title} />
                    </td>
                    <td className="col-title">
                      <a href={`/admin/posts/${post.id}`}>{post.title}</a>
                      {inTrash ? (
                        <TrashRowActions id={post.id} title={post.title} />
                      ) : (
                        <PostRowActions
                          id={post.id}
                          title={post.title}
                          path={`/${encodeURIComponent(post.type)}/${encodeURIComponent(post.slug)}`}
                          status={post.status}
                        />
                      )}
                    </td>
                    <td className="col-type">{post.type}</td>
                    <td className="col-status">{STATUS_LABELS[post.status] ?? post.status}</td>
                    <td className="col-author">{post.authorName}</td>
                    <td className="col-date">
                      <time dateTime={post.publishedAt}>{wallMinute(post.publishedAt, timezone)}</time>
                    </td>
                    <td className="col-location">
                      {post.hasLocation ? LOCATION_PRECISION_TEXT[post.locationPrecision].label : <span className="muted">No</span>}
                    </td>
                    <td className="col-media">{post.attachmentCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </BulkSelection>
      {list.pageCount > 1 && (
        <nav className="pagination" aria-label="Pages">
          {list.page > 1 ? (
            <a href={link({ page: String(list.page - 1) })} rel="prev">
              ← Previous
            </a>
          ) : (
            <span />
          )}
          <ul className="page-numbers">
            {pageNumbers(list.page, list.pageCount).map((n, i) =>
              n === null ? (
                <li key={`gap-${i}`} aria-hidden="true">
                  …
                </li>
              ) : (
                <li key={n}>
                  {n === list.page ? (
                    <a href={link({ page: String(n) })} aria-current="page" aria-label={`Page ${n}`}>
                      {n}
                    </a>
                  ) : (
                    <a href={link({ page: String(n) })} aria-label={`Page ${n}`}>
                      {n}
                    </a>
                  )}
                </li>
              ),
            )}
          </ul>
          {list.page < list.pageCount ? (
            <a href={link({ page: String(list.page + 1) })} rel="next">
              Next →
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  )
}
