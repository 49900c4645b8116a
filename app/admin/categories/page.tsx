import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { listCategoriesForAdmin } from '@/lib/admin/categories'
import { requireSessionActor } from '@/lib/admin/session'
import { canManageCategories } from '@/lib/auth/capabilities'
import { CategoryColors } from './_components/category-colors'

export const metadata: Metadata = { title: 'Categories' }

// GET /admin/categories – editors and administrators: each top-level category's colour on the map (docs/api.md, Colours)
export default async function CategoriesPage() {
  const actor = await requireSessionActor('/admin/categories')
  if (!canManageCategories(actor)) notFound()
  const categories = await listCategoriesForAdmin(actor)
  return (
    <>
      <h1>Categories</h1>
      <p>
        On the map, each place takes the colour of its category&apos;s top-level category, and a cluster shows the mix of its places. Categories are made as
        posts name them.
      </p>
      {categories.length === 0 ? <p>No categories yet: give a post one in its editor.</p> : <CategoryColors categories={categories} />}
    </>
  )
}
