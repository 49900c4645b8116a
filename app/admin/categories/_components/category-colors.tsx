'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import type { AdminCategory } from '@/lib/admin/categories'
import { setCategoryColorAction } from '../actions'

/** The categories as a tree, each top-level one with its colour to change, or to give back to the palette. */
export function CategoryColors({ categories }: { categories: AdminCategory[] }) {
  const [message, setMessage] = useState<NoticeValue>()
  const [errors, setErrors] = useState<Record<number, string>>({})
  const [pending, startTransition] = useTransition()

  function save(category: AdminCategory, color: string | null) {
    startTransition(async () => {
      const result = await setCategoryColorAction(category.id, color)
      setErrors((current) => ({ ...current, [category.id]: result.ok ? '' : (result.fieldErrors.color ?? result.message) }))
      setMessage(
        result.ok
          ? { tone: 'ok', text: color === null ? `${category.name} has the palette's colour again.` : `${category.name}'s colour saved.` }
          : { tone: 'error', text: result.message },
      )
    })
  }

  const onSubmit = (category: AdminCategory) => (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    save(category, (event.currentTarget.elements.namedItem('color') as HTMLInputElement).value)
  }

  return (
    <>
      <div aria-live="polite">
        <Notice notice={message} />
      </div>
      <table className="post-table category-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Posts</th>
            <th scope="col">Colour on the map</th>
          </tr>
        </thead>
        <tbody>
          {categories.map((category) => {
            const id = `category-color-${category.id}`
            return (
              <tr key={category.id}>
                <th scope="row" style={{ paddingLeft: `${0.5 + category.depth * 1.5}rem` }}>
                  {category.name}
                </th>
                <td>{category.posts}</td>
                <td>
                  {category.depth === 0 ? (
                    // Made again when the colour saved changes: the field shows it.
                    <form key={category.color} className="category-color" onSubmit={onSubmit(category)} aria-label={`Colour of ${category.name}`}>
                      <input
                        type="color"
                        id={id}
                        name="color"
                        defaultValue={category.color}
                        aria-label={`Colour of ${category.name}`}
                        aria-invalid={errors[category.id] ? true : undefined}
                        aria-describedby={describedBy(id, errors[category.id])}
                      />
                      <button type="submit" disabled={pending}>
                        Save
                      </button>
                      {category.ownColor && (
                        <button type="button" className="link-button" disabled={pending} onClick={() => save(category, null)}>
                          Use the palette&apos;s
                        </button>
                      )}
                      <FieldError id={id} message={errors[category.id]} />
                    </form>
                  ) : (
                    <span className="hint">
                      <span className="category-swatch" style={{ background: category.color }} aria-hidden="true" /> As its top-level category
                    </span>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </>
  )
}
