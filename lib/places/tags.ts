import 'server-only'
import { getDb, lockTables, type Tx } from '../db'
import { Prisma } from '../generated/sqlite/client'
import { freeSlug } from '../slugs'
import { isPostTypeKey } from './post-fields'
import { IS_PUBLIC_PLACE_SQL } from './visibility'

// Tags, as WordPress's post_tag (README.md, "Tags"): flat, matched by name ignoring case, made when first named by
// anyone who may edit the post they are put on, as WordPress's tag box does.

/** A tag as a post page or the map's filter shows it. */
export type TagRef = { id: number; name: string }

/** Tag ids for these names (tagNamesSchema's), the missing tags created; by lower-cased name. */
export async function resolveTagNames(tx: Tx, names: readonly string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(names.map((name) => name.toLowerCase()))]
  const resolved = new Map<string, number>()
  if (wanted.length === 0) return resolved
  const read = async () => {
    const rows = await tx.tag.findMany({ select: { id: true, name: true, slug: true } })
    for (const row of rows) if (!resolved.has(row.name.toLowerCase())) resolved.set(row.name.toLowerCase(), row.id)
    return rows
  }
  let rows = await read()
  // A tag to make: under the lock, read again, so that two saves naming the same new tag make it once.
  if (wanted.some((name) => !resolved.has(name))) {
    await lockTables(tx, ['tags'])
    rows = await read()
  }
  const slugs = new Set(rows.map((row) => row.slug))
  for (const name of names) {
    if (resolved.has(name.toLowerCase())) continue
    const slug = freeSlug(name, (s) => slugs.has(s))
    slugs.add(slug)
    resolved.set(name.toLowerCase(), (await tx.tag.create({ data: { name, slug }, select: { id: true } })).id)
  }
  return new Map(wanted.map((name) => [name, resolved.get(name)!]))
}

/** Sets a post's tags to exactly these names (tagNamesSchema's), creating the missing ones. */
export async function setPostTags(tx: Tx, postId: number, names: string[]): Promise<void> {
  const ids = [...new Set((await resolveTagNames(tx, names)).values())]
  await tx.postTag.deleteMany({ where: { postId, tagId: { notIn: ids } } })
  const kept = new Set((await tx.postTag.findMany({ where: { postId }, select: { tagId: true } })).map((link) => link.tagId))
  await tx.postTag.createMany({ data: ids.filter((id) => !kept.has(id)).map((tagId) => ({ postId, tagId })) })
}

/** Tags by name (case-insensitive, then id). */
export function byName(a: TagRef, b: TagRef): number {
  return a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id
}

/** The most tags the editor suggests: the most used first. */
const SUGGESTED_TAGS = 1000

/** The names the editor suggests as a tag is typed: the tags most used, then by name. */
export async function listTagSuggestions(): Promise<string[]> {
  const rows = await getDb().tag.findMany({
    select: { name: true },
    orderBy: [{ posts: { _count: 'desc' } }, { name: 'asc' }],
    take: SUGGESTED_TAGS,
  })
  return rows.map((row) => row.name).sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }))
}

/**
 * Those of the tags `ids` that the map of `postType` has a public place with (its filter then names them), by name;
 * the name of a tag only drafts or private locations use is never shown.
 */
export async function findPublicTags(ids: readonly number[], postType: string): Promise<TagRef[]> {
  if (ids.length === 0 || !isPostTypeKey(postType)) return []
  const rows = await getDb().$queryRaw<{ id: number | bigint; name: string }[]>`
    SELECT t."id", t."name" FROM "tags" t WHERE t."id" IN (${Prisma.join(ids)}) AND EXISTS (
      SELECT 1 FROM "post_tags" pt JOIN "posts" p ON p."id" = pt."post_id"
      WHERE pt."tag_id" = t."id" AND p."type" = ${postType} AND ${IS_PUBLIC_PLACE_SQL})`
  return rows.map((row) => ({ id: Number(row.id), name: row.name })).sort(byName)
}

/** `AND` the post `p` has tag `tagId`, for a query on posts aliased `p`; nothing without a tag. */
export function hasTagSql(tagId: number | undefined): Prisma.Sql {
  return tagId === undefined ? Prisma.empty : Prisma.sql`AND EXISTS (SELECT 1 FROM "post_tags" pt WHERE pt."post_id" = p."id" AND pt."tag_id" = ${tagId})`
}
