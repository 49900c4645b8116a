'use client'

import { useActionState } from 'react'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { createPostAction, type NewPostState } from '../../actions'

export function NewPostForm({ types }: { types: string[] }) {
  const [state, action, pending] = useActionState<NewPostState, FormData>(createPostAction, null)
  const errors = state && !state.ok ? state.fieldErrors : {}
  return (
    <form action={action} className="admin-form narrow-form" noValidate>
      {state && !state.ok && (
        <p role="alert" className="form-error">
          {state.message}
        </p>
      )}
      <div className="field">
        <label htmlFor="new-title">Title</label>
        {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the page is this one-field form: the title is where everyone starts */}
        <input id="new-title" name="title" required autoFocus aria-invalid={!!errors.title} aria-describedby={describedBy('new-title', errors.title)} />
        <FieldError id="new-title" message={errors.title} />
      </div>
      <div className="field">
        <label htmlFor="new-type">Type</label>
        <input
          id="new-type"
          name="type"
          defaultValue="post"
          list="new-type-options"
          required
          aria-invalid={!!errors.type}
          aria-describedby={describedBy('new-type', errors.type)}
        />
        <datalist id="new-type-options">
          {types.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <FieldError id="new-type" message={errors.type} />
      </div>
      <button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create draft'}
      </button>
    </form>
  )
}
