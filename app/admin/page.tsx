import type { Metadata } from 'next'
import { z } from 'zod'
import { listCategoryOptions, listEditablePosts, listPostTypes } from '@/lib/admin/posts'
import { requireSessionActor } from '@/lib/admin/session'
import { canCreatePosts } from '@/lib/auth/capabilities'
import { postTypeSchema, STATUSES } from '@/lib/places/schemas'
import { formatUtcMinute } from './_components/format'
import { TrashedNotice } from './_components/trash-actions'
import { STATUS_LABELS } from './_components/status-labels'

export const metadata: Metadata = { title: 'Posts' }

// Anything unparseable in the query string is dropped rather than refused: these are filters someone typed.
const filtersSchema = z.object({
  q: z.string().trim().max(200).catch(''),
  status: z.enum(STATUSES).nullable().catch(null),
  type: postTypeSchema.nullable().catch(null),
  category: z.coerce.number().int().positive().max(2_147_483_647).nullable().catch(null),
  page: z.coerce.number().int().positive().max(1_000_000).catch(1),
})

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

// GET /admin – the posts the signed-in user may edit: search, filters, pages
export default async function PostsPage({ searchParams }: PageProps<'/admin'>) {
  const params = await searchParams
  const query = new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (first(v) === undefined ? [] : [[k, first(v)!]])))
  const actor = await requireSessionActor(`/admin${query.size ? `?${query}` : ''}`)
  const filters = filtersSchema.parse({
    q: first(params.q) ?? '',
    status: first(params.status) || null,
    type: first(params.type) || null,
    category: first(params.category) || null,
    page: first(params.page) ?? 1,
  })
  const trashedId = z.coerce
    .number()
    .int()
    .positive()
    .max(2_147_483_647)
    .nullable()
    .catch(null)
    .parse(first(params.trashed) ?? null)
  const [list, categories, types] = await Promise.all([
    listEditablePosts(actor, { search: filters.q, status: filters.status, type: filters.type, categoryId: filters.category, page: filters.page }),
    listCategoryOptions(),
    listPostTypes(),
  ])
  const pageLink = (page: number) => {
    const next = new URLSearchParams(query)
    next.set('page', String(page))
    return `/admin?${next}`
  }
  const filtered = filters.q || filters.status || filters.type || filters.category
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
      {trashedId !== null && <TrashedNotice key={trashedId} id={trashedId} />}
      <form className="filters" method="get" action="/admin" role="search" aria-label="Filter posts">
        <label>
          Search titles
          <input type="search" name="q" defaultValue={filters.q} />
        </label>
        <label>
          Status
          <select name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any status</option>
            {STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
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
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.path}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
        {filtered && <a href="/admin">Clear filters</a>}
      </form>
      <p className="muted" aria-live="polite">
        {list.total === 0
          ? 'No posts you may edit match.'
          : `${list.total} post${list.total === 1 ? '' : 's'} you may edit${filtered ? ' match' : ''}; page ${list.page} of ${list.pageCount}.`}
      </p>
      {list.posts.length > 0 && (
        <table className="post-table">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Author</th>
              <th scope="col">Date (UTC)</th>
              <th scope="col">Location</th>
              <th scope="col">Media</th>
            </tr>
          </thead>
          <tbody>
            {list.posts.map((post) => (
              <tr key={post.id}>
                <td>
                  <a href={`/admin/posts/${post.id}`}>{post.title}</a>
                </td>
                <td>{post.type}</td>
                <td>{STATUS_LABELS[post.status] ?? post.status}</td>
                <td>{post.authorName}</td>
                <td>
                  <time dateTime={post.publishedAt}>{formatUtcMinute(post.publishedAt)}</time>
                </td>
                <td>{post.hasLocation ? post.locationPublic ? 'Yes' : 'Yes (private)' : <span className="muted">No</span>}</td>
                <td>{post.attachmentCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.pageCount > 1 && (
        <nav className="pagination" aria-label="Pages">
          {list.page > 1 ? (
            <a href={pageLink(list.page - 1)} rel="prev">
              ← Newer
            </a>
          ) : (
            <span />
          )}
          <span>
            Page {list.page} of {list.pageCount}
          </span>
          {list.page < list.pageCount ? (
            <a href={pageLink(list.page + 1)} rel="next">
              Older →
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </>
  )
}
