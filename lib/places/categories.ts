import 'server-only'
import { LRUCache } from 'lru-cache'
import { getDb, readDataVersion, type Tx } from '../db'
import { Prisma } from '../generated/sqlite/client'
import { ApiError } from '../http/errors'
import { freeSlug } from '../slugs'
import { NO_CATEGORY_COLOR, topLevelColor } from './category-colors'
import { isPostTypeKey, parseCategoryPath } from './post-fields'
import { IS_PUBLIC_PLACE_SQL } from './visibility'

type CategoryRow = { id: number; name: string; slug: string; parentId: number | null }

/**
 * Category ids for paths such as `"Europe > France"`, each the last category of its path; the categories on the
 * way are created where missing (a name is matched case-insensitively among its parent's children), unless
 * `mayCreate` is false: then a missing one is a 403 naming it. With `among`, only those categories are matched: any
 * other is as missing, so that a name the caller may not see is not told to exist.
 */
export async function resolveCategoryPaths(
  tx: Tx,
  paths: Iterable<string>,
  { mayCreate = true, among = null }: { mayCreate?: boolean; among?: Set<number> | null } = {},
): Promise<Map<string, number>> {
  const rows: CategoryRow[] = await tx.category.findMany({ select: { id: true, name: true, slug: true, parentId: true } })
  const slugs = new Set(rows.map((row) => row.slug))
  const byParentAndName = new Map(rows.filter((row) => among?.has(row.id) ?? true).map((row) => [key(row.parentId, row.name), row.id]))
  const resolved = new Map<string, number>()
  for (const path of paths) {
    if (resolved.has(path)) continue
    let parentId: number | null = null
    for (const name of parseCategoryPath(path)) {
      let id = byParentAndName.get(key(parentId, name))
      if (id === undefined) {
        if (!mayCreate) {
          throw new ApiError('rest_cannot_create', 'Sorry, you are not allowed to add categories: pick existing ones, or ask an editor.', {
            params: { newCategories: `"${name}" is not a category yet, and only editors and administrators may add categories` },
          })
        }
        const slug = freeSlug(name, (s) => slugs.has(s))
        id = (await tx.category.create({ data: { name, slug, parentId }, select: { id: true } })).id
        slugs.add(slug)
        byParentAndName.set(key(parentId, name), id)
      }
      parentId = id
    }
    if (parentId !== null) resolved.set(path, parentId)
  }
  return resolved
}

function key(parentId: number | null, name: string): string {
  return `${parentId ?? ''}/${name.toLowerCase()}`
}

/**
 * `tree("id")`: the category and all its descendants, as WordPress's `cat` filter matches them, for a query to
 * follow (`WITH RECURSIVE` … `SELECT … WHERE … IN (SELECT "id" FROM tree)`). UNION, not UNION ALL: a cycle of
 * parents, which no writer should make, ends.
 */
export function categoryTreeSql(categoryId: number): Prisma.Sql {
  return Prisma.sql`WITH RECURSIVE tree("id") AS (
      SELECT "id" FROM "categories" WHERE "id" = ${categoryId}
      UNION SELECT c."id" FROM "categories" c JOIN tree t ON c."parent_id" = t."id")`
}

/** The ids of the category and all its descendants (categoryTreeSql); none when there is no such category. */
export async function categoryAndDescendants(db: Tx, categoryId: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number | bigint }[]>`${categoryTreeSql(categoryId)} SELECT "id" FROM tree`
  return rows.map((row) => Number(row.id))
}

/** Every category's path, `"Parent > Child"`, by id. */
export async function getCategoryPaths(tx: Tx): Promise<Map<number, string>> {
  const rows = await tx.category.findMany({ select: { id: true, name: true, parentId: true } })
  const byId = new Map(rows.map((row) => [row.id, row]))
  const paths = new Map<number, string>()
  const pathOf = (id: number, seen = new Set<number>()): string => {
    const known = paths.get(id)
    if (known !== undefined) return known
    const row = byId.get(id)
    if (!row) return ''
    seen.add(id)
    const parent = row.parentId !== null && !seen.has(row.parentId) ? pathOf(row.parentId, seen) : ''
    const path = parent ? `${parent} > ${row.name}` : row.name
    paths.set(id, path)
    return path
  }
  for (const row of rows) pathOf(row.id)
  return paths
}

/** A category in the tree: `depth` 0 for a root; `color` its top-level category's on the map (category-colors.ts). */
export type CategoryNode = { id: number; name: string; slug: string; depth: number; color: string }

// The public filter's trees, per post type, for the data version they were read at.
const publicTrees = new LRUCache<string, { version: number; tree: Promise<CategoryNode[]> }>({ max: 32 })

/**
 * The categories a visitor may filter the map of `postType` by: those with public places of that type, and their
 * ancestors (the filter takes in descendants), as a tree (toCategoryTree). A category that only drafts
 * or private locations use is not shown. Read once per data version.
 */
export async function listPublicCategoryTree(postType: string): Promise<CategoryNode[]> {
  if (!isPostTypeKey(postType)) return []
  const version = await readDataVersion()
  const cached = publicTrees.get(postType)
  if (cached && cached.version >= version) return cached.tree
  const tree = readPublicCategoryTree(postType)
  publicTrees.set(postType, { version, tree })
  tree.catch(() => publicTrees.delete(postType))
  return tree
}

async function readPublicCategoryTree(postType: string): Promise<CategoryNode[]> {
  const db = getDb()
  const [rows, used] = await Promise.all([
    db.category.findMany({ select: { id: true, name: true, slug: true, parentId: true, color: true }, orderBy: { id: 'asc' } }),
    db.$queryRaw<{ id: number | bigint }[]>`
      SELECT c."id" FROM "categories" c WHERE EXISTS (
        SELECT 1 FROM "post_categories" pc JOIN "posts" p ON p."id" = pc."post_id"
        WHERE pc."category_id" = c."id" AND p."type" = ${postType} AND ${IS_PUBLIC_PLACE_SQL})`,
  ])
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]))
  const shown = new Set<number>()
  for (const { id } of used) {
    // The category and its ancestors, up to the root or one already shown (a cycle of parents cannot loop).
    for (let at: number | null | undefined = Number(id); at != null && !shown.has(at); at = parentOf.get(at)) shown.add(at)
  }
  return toCategoryTree(
    rows.filter((row) => shown.has(row.id)),
    colorsOf(rows),
  )
}

type ColorRow = { id: number; parentId: number | null; color: string | null }

/**
 * Each category's colour on the map: its top-level category's, that category's own or the palette's by its position
 * among the top-level categories by id (`rows` in that order). A category in a cycle of parents has none.
 */
export function colorsOf(rows: ColorRow[]): Map<number, string> {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const colors = new Map<number, string>()
  rows.filter((row) => row.parentId === null || !byId.has(row.parentId)).forEach((row, position) => colors.set(row.id, topLevelColor(row.color, position)))
  const colorOf = (row: ColorRow, seen = new Set<number>()): string | undefined => {
    if (colors.has(row.id) || seen.has(row.id)) return colors.get(row.id)
    seen.add(row.id)
    const color = colorOf(byId.get(row.parentId!)!, seen)
    if (color !== undefined) colors.set(row.id, color)
    return color
  }
  for (const row of rows) colorOf(row)
  return colors
}

/** Each category of the tree's top-level category, by id. */
export function topLevelOf(tree: CategoryNode[]): Map<number, number> {
  const tops = new Map<number, number>()
  let top = 0
  for (const node of tree) {
    if (node.depth === 0) top = node.id
    tops.set(node.id, top)
  }
  return tops
}

/**
 * Categories depth first: each after its parent, siblings by name (case-insensitive, then by id); with its colour
 * (colorsOf), or the colour of no category where `colors` has none.
 */
export function toCategoryTree(rows: { id: number; name: string; slug: string; parentId: number | null }[], colors: Map<number, string>): CategoryNode[] {
  const ids = new Set(rows.map((row) => row.id))
  const children = new Map<number | null, typeof rows>()
  for (const row of rows) {
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), row])
  }
  const byName = (a: { id: number; name: string }, b: { id: number; name: string }) =>
    a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id
  // Each category once, from the roots down: a cycle of parents, which no writer should make, cannot loop.
  const tree: CategoryNode[] = []
  const seen = new Set<number>()
  const visit = (parent: number | null, depth: number) => {
    for (const row of (children.get(parent) ?? []).sort(byName)) {
      if (seen.has(row.id)) continue
      seen.add(row.id)
      tree.push({ id: row.id, name: row.name, slug: row.slug, depth, color: colors.get(row.id) ?? NO_CATEGORY_COLOR })
      visit(row.id, depth + 1)
    }
  }
  visit(null, 0)
  return tree
}
