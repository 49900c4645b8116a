import type { CategoryOption } from '@/lib/admin/posts'

/** The categories as a select's options, by path ("Europe > France"), after the select's own first option. */
export function CategoryOptions({ categories }: { categories: CategoryOption[] }) {
  return categories.map((category) => (
    <option key={category.id} value={category.id}>
      {category.path}
    </option>
  ))
}
