import 'server-only'
import type { Picture } from '../api/contract'
import { getConfig } from '../config'
import { titleText } from '../content/title'
import { getDb, readDataVersion } from '../db'
import { listPublicCategoryTree } from './categories'
import { postUrl, tripUrl } from './geojson'
import { getPlaceIndex, nearestPlaces } from './map-index'
import { findPublicPlacesByIds } from './query'
import { isPostTypeKey } from './post-fields'
import { byName, findPublicTags } from './tags'
import { isPublicTrip, publicLocation, type PublicLocation } from './visibility'

// What a post's public page (app/[type]/[slug]/page.tsx), its metadata and its oEmbed answer show. The location goes
// through the one rule (visibility.ts): only the public columns are read, and a hidden one is null here, so nothing below
// it can show a point or an address the level does not allow.

/** The link to another post's page. */
export type PostLink = { title: string; url: string }

/**
 * A category or tag of the post, with the home map filtered by it; null when the map has no place to show in it (its
 * only posts have private locations, as this one may): the map's filter does not offer it either.
 */
export type PostTerm = { id: number; name: string; mapUrl: string | null }

/** A published post's public page. */
export type PostPage = {
  id: number
  type: string
  slug: string
  /** the absolute URL of this page: properties.url */
  url: string
  title: string
  content: string
  /** plain text; empty when the post has none */
  excerpt: string
  publishedAt: Date
  modifiedAt: Date
  /** the address and point the public may see, or null when the location is private */
  location: PublicLocation | null
  categories: PostTerm[]
  /** by name */
  tags: PostTerm[]
  /** the published post of the same type just before this one, and just after, by date (then id) */
  previous: PostLink | null
  next: PostLink | null
  /** the published trip the post was written on (docs/trips.md), or null */
  trip: PostLink | null
}

/** The home map showing one category or tag (README, "Parameters for maps"). */
export function filteredMapUrl(postType: string, filter: 'category' | 'tag', id: number): string {
  const params = new URLSearchParams(postType === 'post' ? { [filter]: String(id) } : { post_type: postType, [filter]: String(id) })
  return `/?${params.toString()}`
}

const POST_PAGE_SELECT = {
  id: true,
  type: true,
  slug: true,
  title: true,
  content: true,
  excerpt: true,
  publishedAt: true,
  modifiedAt: true,
  status: true,
  authorId: true,
  statusBeforeTrash: true,
  publicAddress: true,
  publicLatitude: true,
  publicLongitude: true,
  categories: { select: { category: { select: { id: true, name: true } } } },
  tags: { select: { tag: { select: { id: true, name: true } } } },
  trip: { select: { title: true, slug: true, status: true } },
} as const

/** A post as its page reads it, whatever its status (with what the capability check reads). */
export type PostPageRow = NonNullable<Awaited<ReturnType<typeof readPostPageRow>>>

/** The post `type`/`slug` as its page reads it, whatever its status; null when there is none. */
export async function readPostPageRow(type: string, slug: string) {
  if (!isPostTypeKey(type) || slug.includes('\0')) return null
  return getDb().post.findUnique({ where: { type_slug: { type, slug } }, select: POST_PAGE_SELECT })
}

/** The page of the published post `type`/`slug`; null for anything else (a draft is as missing as nothing). */
export async function findPostPage(type: string, slug: string): Promise<PostPage | null> {
  const post = await readPostPageRow(type, slug)
  return post && post.status === 'publish' ? postPageOf(post) : null
}

/** The page of `post`, as the public would see it published: its location through the rule, its neighbours. */
export async function postPageOf(post: PostPageRow): Promise<PostPage> {
  const siteUrl = getConfig().siteUrl
  const [previous, next, mapped, mappedTags] = await Promise.all([
    neighbour(post, 'previous'),
    neighbour(post, 'next'),
    listPublicCategoryTree(post.type),
    findPublicTags(
      post.tags.map(({ tag }) => tag.id),
      post.type,
    ),
  ])
  const onTheMap = new Set(mapped.map((category) => category.id))
  const tagsOnTheMap = new Set(mappedTags.map((tag) => tag.id))
  return {
    id: post.id,
    type: post.type,
    slug: post.slug,
    url: postUrl(siteUrl, post.type, post.slug),
    title: titleText(post.title),
    content: post.content,
    excerpt: post.excerpt,
    publishedAt: post.publishedAt,
    modifiedAt: post.modifiedAt,
    location: publicLocation(post),
    categories: post.categories
      .map(({ category }) => ({ ...category, mapUrl: onTheMap.has(category.id) ? filteredMapUrl(post.type, 'category', category.id) : null }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    tags: post.tags.map(({ tag }) => ({ ...tag, mapUrl: tagsOnTheMap.has(tag.id) ? filteredMapUrl(post.type, 'tag', tag.id) : null })).sort(byName),
    previous: previous && { title: titleText(previous.title), url: postUrl(siteUrl, previous.type, previous.slug) },
    next: next && { title: titleText(next.title), url: postUrl(siteUrl, next.type, next.slug) },
    trip: post.trip && isPublicTrip(post.trip) ? { title: post.trip.title, url: tripUrl(siteUrl, post.trip.slug) } : null,
  }
}

type Dated = { id: number; type: string; publishedAt: Date }

/**
 * The published post of the same type just before (or after) this one in (publishedAt, id) order. Two lookups, each
 * a seek in posts_listing_idx: the same date with a lower (higher) id, else the nearest earlier (later) date.
 */
async function neighbour({ id, type, publishedAt }: Dated, direction: 'previous' | 'next') {
  const select = { title: true, type: true, slug: true } as const
  const [before, order] = direction === 'previous' ? (['lt', 'desc'] as const) : (['gt', 'asc'] as const)
  const db = getDb()
  return (
    (await db.post.findFirst({ where: { type, status: 'publish', publishedAt, id: { [before]: id } }, orderBy: { id: order }, select })) ??
    (await db.post.findFirst({
      where: { type, status: 'publish', publishedAt: { [before]: publishedAt } },
      orderBy: [{ publishedAt: order }, { id: order }],
      select,
    }))
  )
}

/** A public place near a post, for its page's small map and list. */
export type NearbyPlace = { id: number; title: string; url: string; latitude: number; longitude: number; metres: number }

/** How many nearby places a post's page shows. */
export const NEARBY_COUNT = 5

/**
 * The public places of the post's type nearest its point, nearest first, from the map's index (only public places
 * are in it). None for a post whose location the public may not see: the caller passes the public location only.
 */
export async function findNearbyPlaces(post: { id: number; type: string; location: PublicLocation | null }, count = NEARBY_COUNT): Promise<NearbyPlace[]> {
  const point = post.location?.point
  if (!point) return []
  const index = await getPlaceIndex({ postType: post.type, categoryId: null }, await readDataVersion())
  const near = nearestPlaces(index, point.latitude, point.longitude, count, post.id)
  // The index may be a moment older than the data: each place is read again through the rule, and kept if still public.
  const places = new Map((await findPublicPlacesByIds(near.map((place) => place.id))).map((place) => [place.id, place]))
  const siteUrl = getConfig().siteUrl
  return near.flatMap(({ id, metres }) => {
    const place = places.get(id)
    if (!place) return []
    // The copy of its longitude nearest the post's, so that a place beyond the antimeridian is drawn beside it.
    const longitude = place.longitude + 360 * Math.round((point.longitude - place.longitude) / 360)
    return [{ id, title: titleText(place.title), url: postUrl(siteUrl, place.type, place.slug), latitude: place.latitude, longitude, metres }]
  })
}

/** The largest JPEG of a picture, as an absolute URL with its size: for Open Graph, Twitter cards, JSON-LD, oEmbed. */
export function largestImage(picture: Picture): { url: string; width: number; height: number } {
  const largest = picture.srcset
    .split(',')
    .map((entry) => entry.trim().split(/\s+/))
    .map(([url, width]) => ({ url: url ?? '', width: Number.parseInt(width ?? '0', 10) || 0 }))
    .filter((entry) => entry.url)
    .sort((a, b) => b.width - a.width)[0]
  const url = new URL(largest?.url ?? picture.src, getConfig().siteUrl).href
  return { url, width: picture.width, height: picture.height }
}
