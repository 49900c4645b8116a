import 'server-only'
import { getDb } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { getCategoryPaths } from './categories'
import type { ImportFeature } from './schemas'
import type { LocationPrecision } from './location-levels'
import { effectivePrecision, isPublicTrip, publicLocation, PublicLocationRule, type ExactLocation, type PublicLocation, type Zone } from './visibility'

export type ExportOptions = { postType?: string; allStatuses?: boolean }

export type ExportedFeature = {
  type: 'Feature'
  geometry: ImportFeature['geometry']
  properties: Required<Omit<ImportFeature['properties'], 'date' | 'author' | 'location_precision' | 'excerpt' | 'tags' | 'trip'>> & {
    /** only when the post has one */
    excerpt?: string
    /** by name; only when the post has some */
    tags?: string[]
    /** the slug of its trip; in the public copy only a published one */
    trip?: string
    date: string
    author?: string
    location_precision?: ImportFeature['properties']['location_precision']
  }
}

const BATCH = 1000

/** What an exported feature is made of. */
export const EXPORT_SELECT = {
  id: true,
  title: true,
  content: true,
  excerpt: true,
  slug: true,
  type: true,
  status: true,
  publishedAt: true,
  address: true,
  latitude: true,
  longitude: true,
  locationPrecision: true,
  publicAddress: true,
  publicLatitude: true,
  publicLongitude: true,
  author: { select: { email: true } },
  categories: { select: { categoryId: true } },
  tags: { select: { tag: { select: { name: true } } } },
  trip: { select: { slug: true, status: true } },
} as const satisfies Prisma.PostSelect

type ExportedPost = Prisma.PostGetPayload<{ select: typeof EXPORT_SELECT }>

/**
 * A post as an import-format feature. With `zones` (the full copy) its exact location and level, at least as coarse
 * as the zones make it; without, what the public sees (lib/places/visibility.ts), a hidden location as none.
 */
export function toExportedFeature(post: ExportedPost, categoryPaths: Map<number, string>, zones: readonly Zone[] | null): ExportedFeature {
  const location = zones ? exactLocation(post) : publicLocation(post)
  return {
    type: 'Feature',
    geometry: location?.point ? { type: 'Point', coordinates: [location.point.longitude, location.point.latitude] } : null,
    properties: {
      id: post.id,
      title: post.title,
      content: post.content,
      ...(post.excerpt ? { excerpt: post.excerpt } : {}),
      slug: post.slug,
      type: post.type,
      status: post.status as ImportFeature['properties']['status'],
      date: post.publishedAt.toISOString(),
      address: location?.address ?? '',
      // The public copy holds what the public sees only: a hidden location looks like none at all.
      ...(zones ? fullCopyLevel(post, zones) : { geo_public: true }),
      categories: post.categories
        .map((c) => categoryPaths.get(c.categoryId) ?? '')
        .filter(Boolean)
        .sort(),
      ...(post.tags.length > 0 ? { tags: post.tags.map(({ tag }) => tag.name).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })) } : {}),
      ...(post.trip && (zones || isPublicTrip(post.trip)) ? { trip: post.trip.slug } : {}),
      // Who wrote a post is not shown to visitors: only the full copy names authors.
      ...(zones ? { author: post.author.email } : {}),
    },
  }
}

/** The level of a post in the full copy: its own, or its zones' where coarser (the zones do not travel with it). */
function fullCopyLevel(post: ExactLocation, zones: readonly Zone[]): { geo_public: boolean; location_precision: LocationPrecision } {
  const level = effectivePrecision(post, zones)
  return { geo_public: level !== 'hidden', location_precision: level }
}

/** A post's location as its editors see it: the operator's full copy. */
function exactLocation({ address, latitude, longitude }: { address: string; latitude: number | null; longitude: number | null }): PublicLocation {
  return { address, point: latitude !== null && longitude !== null ? { latitude, longitude } : null }
}

/**
 * The posts as import-format features (README, "Command line"), by id, a batch at a time. By default what the
 * public may see: published posts, each location as its level allows (lib/places/visibility.ts), a hidden one left
 * out as if the post had none, and no level named. With `allStatuses`, the operator's full copy: every post with its
 * exact location and level, so that `places import` of it into an empty database gives the same posts, ids, slugs,
 * levels and routes. The privacy zones are not in it: each level is written at least as coarse as the zones make it,
 * so that a post at home is no more public on the site the copy is imported into (docs/privacy.md).
 */
export async function* exportPlaces({ postType, allStatuses = false }: ExportOptions = {}): AsyncGenerator<ExportedFeature> {
  const db = getDb()
  const categoryPaths = await getCategoryPaths(db)
  const zones = allStatuses ? (await PublicLocationRule.load(db)).zones : []
  let after = 0
  for (;;) {
    const posts = await db.post.findMany({
      where: { id: { gt: after }, ...(postType ? { type: postType } : {}), ...(allStatuses ? {} : { status: 'publish' }) },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: EXPORT_SELECT,
    })
    for (const post of posts) yield toExportedFeature(post, categoryPaths, allStatuses ? zones : null)
    const last = posts.at(-1)
    if (!last) return
    after = last.id
  }
}
