import 'server-only'
import { epochMillisSql, getDb, IDS_PER_QUERY, idsContainingSql, leftJoinPostByIdSql, readIds, streamRows } from '../db'
import { Prisma } from '../generated/sqlite/client'
import type { StreamOptions } from '../db/dialect'
import { categoryTreeSql } from './categories'
import { isPostTypeKey } from './post-fields'
import { type CollectionQuery } from './schemas'
import { hasTagSql } from './tags'
import { IS_PUBLIC_PLACE_SQL as IS_PUBLIC_PLACE, PUBLIC_LOCATION_COLUMNS_SQL as PUBLIC_LOCATION } from './visibility'

/** A post as the public routes show it: its location as the public may see it (visibility.ts). */
export type Place = {
  id: number
  type: string
  slug: string
  title: string
  address: string
  latitude: number
  longitude: number
  /** when it was published, in milliseconds since 1970 UTC */
  publishedAt: number
}

type PlaceRow = Omit<Place, 'id' | 'publishedAt'> & { id: number | bigint; publishedAt: number | bigint }

function toPlace(row: PlaceRow): Place {
  return { ...row, id: Number(row.id), publishedAt: Number(row.publishedAt) }
}

/** The columns of a Place, as SQL on posts aliased `p`. */
const placeColumns = () =>
  Prisma.sql`p."id", p."type", p."slug", p."title", ${PUBLIC_LOCATION}, ${epochMillisSql(Prisma.sql`p."published_at"`)} AS "publishedAt"`

// The category filter matches the category and all its descendants, as WordPress's `cat` does.
function categoryTree(categoryId: number | null): Prisma.Sql {
  return categoryId === null ? Prisma.empty : categoryTreeSql(categoryId)
}

/** Which places a query asks for: a post type, and perhaps a category (with its descendants) and a tag. */
export type PlaceFilter = Pick<CollectionQuery, 'postType' | 'categoryId' | 'tagId'>

/** `AND` the post `p` is in the category's tree (categoryTree, before the query) and has the tag, of those asked for. */
function inFilter({ categoryId, tagId }: PlaceFilter): Prisma.Sql {
  const inTree =
    categoryId === null
      ? Prisma.empty
      : Prisma.sql`AND EXISTS (SELECT 1 FROM "post_categories" pc
      WHERE pc."post_id" = p."id" AND pc."category_id" IN (SELECT "id" FROM tree))`
  return Prisma.sql`${inTree} ${hasTagSql(tagId)}`
}

/**
 * The ids of the posts whose title or public address contains `text`, ignoring case (docs/api.md, search), in no
 * order, from the databases' text indexes: public places among them, and perhaps other posts (the map's index keeps only
 * its own places of them, lib/places/map-index).
 */
export function findIdsContaining(text: string): Promise<Int32Array> {
  return readIds(idsContainingSql(text))
}

/**
 * Published posts of one type with public geodata, newest first (ties: higher id first), at most `limit`, from page
 * `page` (1 when not given).
 */
export async function listPublicPlaces(query: Omit<CollectionQuery, 'search'>): Promise<Place[]> {
  const { postType, limit, categoryId, page = 1 } = query
  if (!isPostTypeKey(postType)) return []
  const rows = await getDb().$queryRaw<PlaceRow[]>`
    ${categoryTree(categoryId)}
    SELECT ${placeColumns()}
    FROM "posts" p
    WHERE p."type" = ${postType} AND ${IS_PUBLIC_PLACE}
    ${inFilter(query)}
    ORDER BY p."published_at" DESC, p."id" DESC
    LIMIT ${limit}${page > 1 ? Prisma.sql` OFFSET ${(page - 1) * limit}` : Prisma.empty}`
  return rows.map(toPlace)
}

/**
 * Where and when a place is, as the map's index (lib/places/map-index/read.ts) reads it: `[id, latitude, longitude,
 * publishedAt, category]`, the date in milliseconds since 1970 UTC, the category its first (FIRST_CATEGORY_SQL; none:
 * 0 or left out).
 */
export type PlacePoint = [id: number, latitude: number, longitude: number, publishedAt: number, category?: number]

/** A post `p`'s first category, the one of lowest id, whose top-level category colours its place on the map (docs/api.md, Colours). */
const FIRST_CATEGORY_SQL = Prisma.sql`(SELECT MIN(fc."category_id") FROM "post_categories" fc WHERE fc."post_id" = p."id")`

/**
 * Every published post of one type (and category and tag) with public geodata, in the collection's order (newest first,
 * ties by id descending), in chunks of `size`, all from one snapshot of the data.
 */
export async function* streamPublicPlacePoints(query: PlaceFilter, size: number, options: StreamOptions = {}): AsyncGenerator<PlacePoint[]> {
  const { postType, categoryId } = query
  if (!isPostTypeKey(postType)) return
  yield* streamRows(
    Prisma.sql`
    ${categoryTree(categoryId)}
    SELECT p."id", p."public_latitude" AS "latitude", p."public_longitude" AS "longitude", ${epochMillisSql(Prisma.sql`p."published_at"`)},
      ${FIRST_CATEGORY_SQL} AS "category"
    FROM "posts" p
    WHERE p."type" = ${postType} AND ${IS_PUBLIC_PLACE}
    ${inFilter(query)}
    ORDER BY p."published_at" DESC, p."id" DESC`,
    size,
    options,
  ) as AsyncGenerator<PlacePoint[]>
}

/** Data versions the change log keeps (migration 0010 prunes older entries): an index further behind is read again. */
const CHANGES_KEPT = 10_000
/** More posts changed than this, and the index is read again: an update would cost about as much. */
const MAX_CHANGES = 20_000

/** What changed in the public places of an index (lib/places/map-index/cache.ts). */
export type PlaceChanges = {
  /** the ids of the posts written since (an index drops those it holds) */
  ids: Set<number>
  /** those of them that are public places of the index now */
  places: PlacePoint[]
}

type ChangeRow = { version: number | bigint; id: number | bigint | null } & {
  [column in 'latitude' | 'longitude' | 'publishedAt' | 'category']: number | bigint | null
}

/**
 * The changes to the public places of one filter (a post type, category and tag) after data version `since`, from the change log
 * (migration 0010) and the posts, in one statement: one snapshot of both. Null when the log cannot tell: it was
 * pruned past `since`, it says anything may have changed (post 0), or more posts changed than are worth updating.
 */
export async function readPlaceChanges(query: PlaceFilter, since: number): Promise<PlaceChanges | null> {
  const { postType, categoryId } = query
  if (!isPostTypeKey(postType)) return null
  const rows = await getDb().$queryRaw<ChangeRow[]>`
    ${categoryTree(categoryId)}
    SELECT s."data_version" AS "version", c."post_id" AS "id", p."public_latitude" AS "latitude", p."public_longitude" AS "longitude",
      ${epochMillisSql(Prisma.sql`p."published_at"`)} AS "publishedAt", ${FIRST_CATEGORY_SQL} AS "category"
    FROM "site_state" s
    LEFT JOIN (SELECT DISTINCT "post_id" FROM "place_changes" WHERE "version" > ${since} LIMIT ${MAX_CHANGES + 1}) c ON 1 = 1
    ${leftJoinPostByIdSql(Prisma.sql`c."post_id"`, Prisma.sql`p."type" = ${postType} AND ${IS_PUBLIC_PLACE} ${inFilter(query)}`)}
    WHERE s."id" = 1`
  if (rows.length === 0 || Number(rows[0]!.version) - since > CHANGES_KEPT || rows.length > MAX_CHANGES) return null
  const changes: PlaceChanges = { ids: new Set(), places: [] }
  for (const { id, latitude, longitude, publishedAt, category } of rows) {
    if (id === null) continue
    if (Number(id) === 0) return null
    changes.ids.add(Number(id))
    if (latitude !== null) changes.places.push([Number(id), Number(latitude), Number(longitude), Number(publishedAt), Number(category ?? 0)])
  }
  return changes
}

/** Whether a filter (a post type, category and tag) has any public place: one probe of the partial index, however many there are. */
export async function hasPublicPlaces(query: PlaceFilter): Promise<boolean> {
  const { postType, categoryId } = query
  if (!isPostTypeKey(postType)) return false
  const rows = await getDb().$queryRaw<unknown[]>`
    ${categoryTree(categoryId)}
    SELECT 1 FROM "posts" p
    WHERE p."type" = ${postType} AND ${IS_PUBLIC_PLACE}
    ${inFilter(query)}
    LIMIT 1`
  return rows.length > 0
}

/** The places with these ids that are still public, in the order of `ids`. */
export async function findPublicPlacesByIds(ids: number[]): Promise<Place[]> {
  const found = new Map<number, Place>()
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await getDb().$queryRaw<PlaceRow[]>`
      SELECT ${placeColumns()}
      FROM "posts" p
      WHERE p."id" IN (${Prisma.join(ids.slice(start, start + IDS_PER_QUERY))}) AND ${IS_PUBLIC_PLACE}`
    for (const row of rows) found.set(Number(row.id), toPlace(row))
  }
  return ids.flatMap((id) => found.get(id) ?? [])
}

/** What `_embed` adds to a place (docs/api.md, _embed), but its picture (lib/media/pictures.ts). */
export type PlaceDetails = { publishedAt: Date; categories: { id: number; name: string; slug: string }[] }

/** The publication time and categories (by name) of these posts, which the caller found public. */
export async function findPlaceDetails(ids: number[]): Promise<Map<number, PlaceDetails>> {
  const found = new Map<number, PlaceDetails>()
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const posts = await getDb().post.findMany({
      where: { id: { in: ids.slice(start, start + IDS_PER_QUERY) } },
      select: { id: true, publishedAt: true, categories: { select: { category: { select: { id: true, name: true, slug: true } } } } },
    })
    for (const post of posts) {
      const categories = post.categories.map((c) => c.category).sort((a, b) => a.name.localeCompare(b.name, 'en') || a.id - b.id)
      found.set(post.id, { publishedAt: post.publishedAt, categories })
    }
  }
  return found
}

export type PlaceLookup = { found: Place } | { missing: 'post' | 'geodata' }

/**
 * One post for GET /geojson/{id}. A post that is not published is `missing: 'post'`, as one that does not exist:
 * the public route must not tell drafts apart from nothing. The place itself comes by the query of the collection's
 * places (a raw query, cheaper than Prisma's own); only a miss asks why.
 */
export async function findPublicPlace(id: number): Promise<PlaceLookup> {
  const [place] = await findPublicPlacesByIds([id])
  if (place) return { found: place }
  const post = await getDb().post.findUnique({ where: { id }, select: { status: true } })
  return { missing: post?.status === 'publish' ? 'geodata' : 'post' }
}
