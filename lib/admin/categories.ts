import 'server-only'
import { z } from 'zod'
import { canManageCategories, type Actor } from '../auth/capabilities'
import { getDb } from '../db'
import { ApiError, forbidden, invalidParams } from '../http/errors'
import { parseOrThrow } from '../http/params'
import { colorsOf, toCategoryTree, type CategoryNode } from '../places/categories'
import { parseColor } from '../places/category-colors'
import { idSchema } from './forms'

/** A category as Admin → Categories lists it: its colour on the map, the one its editor set (top-level only), and its posts. */
export type AdminCategory = CategoryNode & { ownColor: string | null; posts: number }

/** Every category, depth first (toCategoryTree), for editors and administrators (manage_categories). */
export async function listCategoriesForAdmin(actor: Actor): Promise<AdminCategory[]> {
  if (!canManageCategories(actor)) throw forbidden()
  const rows = await getDb().category.findMany({
    select: { id: true, name: true, slug: true, parentId: true, color: true, _count: { select: { posts: true } } },
    orderBy: { id: 'asc' },
  })
  const byId = new Map(rows.map((row) => [row.id, row]))
  return toCategoryTree(rows, colorsOf(rows)).map((node) => {
    const row = byId.get(node.id)!
    return { ...node, ownColor: node.depth === 0 ? parseColor(row.color) : null, posts: row._count.posts }
  })
}

const colorInputSchema = z.strictObject({ id: idSchema, color: z.string().max(32).nullable() })

/**
 * Sets a top-level category's colour on the map (`#rrggbb`), or with null gives it back the palette's
 * (docs/api.md, Colours). A subcategory has none of its own: it shows its top-level category's.
 */
export async function setCategoryColor(actor: Actor, input: unknown): Promise<void> {
  if (!canManageCategories(actor)) throw forbidden()
  const { id, color } = parseOrThrow(colorInputSchema, input)
  const parsed = color === null ? null : parseColor(color)
  if (color !== null && parsed === null) throw invalidParams({ color: 'A colour is # and six hexadecimal digits, such as #c2410c' })
  const db = getDb()
  // One statement: a category moved under another, or deleted, meanwhile is not given a colour.
  const { count } = await db.category.updateMany({ where: { id, parentId: null }, data: { color: parsed } })
  if (count === 1) return
  if (!(await db.category.findUnique({ where: { id }, select: { id: true } })))
    throw new ApiError('rest_term_invalid', 'This category does not exist (any more).')
  throw invalidParams({ color: "Only top-level categories have a colour of their own: a subcategory shows its top-level category's" })
}
