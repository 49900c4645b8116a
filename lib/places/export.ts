import 'server-only'
import { getDb } from '../db'
import { getCategoryPaths } from './categories'
import type { ImportFeature } from './schemas'

export type ExportOptions = { postType?: string; allStatuses?: boolean }

type ExportedFeature = {
  type: 'Feature'
  geometry: ImportFeature['geometry']
  properties: Required<Omit<ImportFeature['properties'], 'date'>> & { date: string }
}

const BATCH = 1000

/**
 * The posts as import-format features (spec/CLI.md), by id, a batch at a time: `places import` of the result into
 * an empty database gives the same posts, ids, slugs and routes. Published posts only unless `allStatuses`.
 */
export async function* exportPlaces({ postType, allStatuses = false }: ExportOptions = {}): AsyncGenerator<ExportedFeature> {
  const db = getDb()
  const categoryPaths = await getCategoryPaths(db)
  let after = 0
  for (;;) {
    const posts = await db.post.findMany({
      where: { id: { gt: after }, ...(postType ? { type: postType } : {}), ...(allStatuses ? {} : { status: 'publish' }) },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: {
        id: true, title: true, content: true, slug: true, type: true, status: true, publishedAt: true, address: true,
        latitude: true, longitude: true, locationPublic: true,
        author: { select: { email: true } },
        categories: { select: { categoryId: true } },
      },
    })
    for (const post of posts) {
      yield {
        type: 'Feature',
        geometry: post.latitude !== null && post.longitude !== null ? { type: 'Point', coordinates: [post.longitude, post.latitude] } : null,
        properties: {
          id: post.id,
          title: post.title,
          content: post.content,
          slug: post.slug,
          type: post.type,
          status: post.status as ImportFeature['properties']['status'],
          date: post.publishedAt.toISOString(),
          address: post.address,
          geo_public: post.locationPublic,
          categories: post.categories.map((c) => categoryPaths.get(c.categoryId) ?? '').filter(Boolean).sort(),
          author: post.author.email,
        },
      }
    }
    const last = posts.at(-1)
    if (!last) return
    after = last.id
  }
}
