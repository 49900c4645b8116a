import 'server-only'
import type { Prisma } from '../generated/sqlite/client'
import { slugify, uniqueSlug } from '../slugs'
import { parseCategoryPath } from './schemas'

type Tx = Prisma.TransactionClient
type CategoryRow = { id: number; name: string; slug: string; parentId: number | null }

/**
 * Category ids for paths such as `"Europe > France"`, each the last category of its path; the categories on the
 * way are created where missing (a name is matched case-insensitively among its parent's children).
 */
export async function resolveCategoryPaths(tx: Tx, paths: Iterable<string>): Promise<Map<string, number>> {
  const rows: CategoryRow[] = await tx.category.findMany({ select: { id: true, name: true, slug: true, parentId: true } })
  const slugs = new Set(rows.map((row) => row.slug))
  const byParentAndName = new Map(rows.map((row) => [key(row.parentId, row.name), row.id]))
  const resolved = new Map<string, number>()
  for (const path of paths) {
    if (resolved.has(path)) continue
    let parentId: number | null = null
    for (const name of parseCategoryPath(path)) {
      let id = byParentAndName.get(key(parentId, name))
      if (id === undefined) {
        const slug = uniqueSlug(slugify(name), (s) => slugs.has(s))
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
