'use client'
import { useState } from 'react'
import type { CategoryNode } from '@/lib/places/categories'
import { NO_CATEGORY_COLOR } from '@/lib/places/category-colors'

type Props = {
  /** the public tree of the map's post type: its top-level categories are the legend's */
  categories: CategoryNode[]
  /** each category's colour (category-colors.ts, colorMap) */
  colors: ReadonlyMap<number, string>
  /** the category shown, null for all */
  categoryId: number | null
  onChange: (categoryId: number | null) => void
  /** whether places with no category are in view: the legend then says what their colour is */
  withUncategorised: boolean
  /** open at first (a wide screen); else a button that opens it */
  startOpen: boolean
}

/**
 * The map's legend, which is also its filter: each top-level category with its colour, a button that shows its places
 * alone (pressed), or all again when pressed a second time, as the list's category menu does.
 */
export function MapLegend({ categories, colors, categoryId, onChange, withUncategorised, startOpen }: Props) {
  const [isOpen, setOpen] = useState(startOpen)
  const tops = categories.filter((category) => category.depth === 0)
  if (tops.length === 0) return null
  return (
    <div className="map-legend">
      <button type="button" className="map-button" aria-expanded={isOpen} aria-controls="map-legend-list" onClick={() => setOpen((open) => !open)}>
        Categories
      </button>
      <ul id="map-legend-list" hidden={!isOpen} aria-label="Categories: show one">
        {tops.map((category) => (
          <li key={category.id}>
            <button type="button" aria-pressed={category.id === categoryId} onClick={() => onChange(category.id === categoryId ? null : category.id)}>
              <span className="map-legend-swatch" style={{ background: colors.get(category.id) ?? NO_CATEGORY_COLOR }} aria-hidden="true" />
              {category.name}
            </button>
          </li>
        ))}
        {withUncategorised && (
          <li className="map-legend-none">
            <span className="map-legend-swatch" style={{ background: NO_CATEGORY_COLOR }} aria-hidden="true" />
            No category
          </li>
        )}
      </ul>
    </div>
  )
}
