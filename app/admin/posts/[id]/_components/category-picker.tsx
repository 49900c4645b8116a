'use client'

import { useId, useRef, useState, type KeyboardEvent } from 'react'
import type { CategoryOption } from '@/lib/admin/posts'
import { parseCategoryPath } from '@/lib/places/post-fields'

type Props = {
  categories: CategoryOption[]
  selectedIds: number[]
  newPaths: string[]
  /** whether the user may add categories (editors and administrators), or only pick existing ones */
  canAdd: boolean
  onChange: (selectedIds: number[], newPaths: string[]) => void
  error?: string
}

/** Pick a post's categories from the existing ones (with a filter), or name new ones ("Parent > Child"). */
export function CategoryPicker({ categories, selectedIds, newPaths, canAdd, onChange, error }: Props) {
  const id = useId()
  const [filter, setFilter] = useState('')
  const [draft, setDraft] = useState('')
  const [draftError, setDraftError] = useState<string>()
  const selected = new Set(selectedIds)
  const byId = new Map(categories.map((c) => [c.id, c.path]))
  const needle = filter.trim().toLowerCase()
  const shown = needle ? categories.filter((c) => c.path.toLowerCase().includes(needle)) : categories
  const list = useRef<HTMLDivElement>(null)
  // The list is one Tab stop (WAI-ARIA APG's roving tabindex): the arrows, Home and End move within it, Space ticks.
  // Hundreds of categories would otherwise stand between the form and Save.
  const [activeId, setActiveId] = useState<number>()
  const active = shown.find((c) => c.id === activeId) ?? shown.find((c) => selected.has(c.id)) ?? shown[0]

  function onListKey(event: KeyboardEvent<HTMLDivElement>) {
    if (!active) return
    const at = shown.indexOf(active)
    const to =
      event.key === 'ArrowDown' || event.key === 'ArrowRight'
        ? Math.min(at + 1, shown.length - 1)
        : event.key === 'ArrowUp' || event.key === 'ArrowLeft'
          ? Math.max(at - 1, 0)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? shown.length - 1
              : null
    if (to === null) return
    event.preventDefault() // not the page's scrolling
    const next = shown[to]
    if (!next) return
    setActiveId(next.id)
    list.current?.querySelector<HTMLInputElement>(`input[data-category="${next.id}"]`)?.focus()
  }

  const toggle = (categoryId: number, on: boolean) => onChange(on ? [...selectedIds, categoryId] : selectedIds.filter((c) => c !== categoryId), newPaths)

  function addNew() {
    const path = parseCategoryPath(draft).join(' > ')
    if (!path) return setDraftError('Type a name first.')
    const existing = categories.find((c) => c.path.toLowerCase() === path.toLowerCase())
    if (existing) {
      if (!selected.has(existing.id)) toggle(existing.id, true)
    } else if (!newPaths.some((p) => p.toLowerCase() === path.toLowerCase())) {
      onChange(selectedIds, [...newPaths, path])
    }
    setDraft('')
    setDraftError(undefined)
  }

  function onDraftKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault() // add the category, do not save the post
      addNew()
    }
  }

  return (
    <fieldset className="categories" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Categories</legend>
      {selectedIds.length + newPaths.length === 0 ? (
        <p className="muted">None chosen.</p>
      ) : (
        <ul className="chips" aria-label="Chosen categories">
          {selectedIds.map((categoryId) => (
            <li key={categoryId}>
              {byId.get(categoryId) ?? `#${categoryId}`}
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove category ${byId.get(categoryId) ?? categoryId}`}
                onClick={() => toggle(categoryId, false)}
              >
                ×
              </button>
            </li>
          ))}
          {newPaths.map((path) => (
            <li key={`new:${path}`}>
              {path} <em>(new)</em>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove new category ${path}`}
                onClick={() =>
                  onChange(
                    selectedIds,
                    newPaths.filter((p) => p !== path),
                  )
                }
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-filter`}>Find a category</label>
        <input id={`${id}-filter`} type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the arrow keys of the checkboxes inside (roving tabindex) */}
      <div ref={list} className="category-list" role="group" aria-label="Existing categories" aria-describedby={`${id}-keys`} onKeyDown={onListKey}>
        {shown.length === 0 && <p className="muted">No category matches.</p>}
        {shown.map((category) => (
          <label key={category.id} className="checkbox">
            <input
              type="checkbox"
              data-category={category.id}
              tabIndex={category === active ? 0 : -1}
              checked={selected.has(category.id)}
              onChange={(e) => toggle(category.id, e.target.checked)}
              onFocus={() => setActiveId(category.id)}
            />
            {category.path}
          </label>
        ))}
      </div>
      <p id={`${id}-keys`} className="hint">
        One Tab stop: the arrow keys, Home and End move through the list, Space ticks.
      </p>
      {canAdd && (
        <div className="field">
          <label htmlFor={`${id}-new`}>New category</label>
          <div className="inline">
            <input
              id={`${id}-new`}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onDraftKey}
              aria-describedby={`${id}-new-hint${draftError ? ` ${id}-new-error` : ''}`}
            />
            <button type="button" className="secondary" onClick={addNew}>
              Add
            </button>
          </div>
          <p id={`${id}-new-hint`} className="hint">
            “Parent &gt; Child” puts it under a parent. It is created when the post is saved.
          </p>
          {draftError && (
            <p id={`${id}-new-error`} className="field-error">
              {draftError}
            </p>
          )}
        </div>
      )}
    </fieldset>
  )
}
