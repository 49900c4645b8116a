'use client'

import { useActionState, useState } from 'react'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { TypeField } from '../../[id]/_components/type-field'
import { createPostAction, type NewPostState } from '../../actions'

export function NewPostForm({ types }: { types: string[] }) {
  const [state, action, pending] = useActionState<NewPostState, FormData>(createPostAction, null)
  const errors = state && !state.ok ? state.fieldErrors : {}
  const [type, setType] = useState(types.includes('post') ? 'post' : (types[0] ?? 'post'))
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
        <TypeField
          id="new-type"
          name="type"
          value={type}
          types={types}
          onChange={setType}
          invalid={!!errors.type}
          describedBy={describedBy('new-type', errors.type)}
        />
        <FieldError id="new-type" message={errors.type} />
      </div>
      <button type="submit" disabled={pending}>
        {pending ? 'Creating…' : 'Create draft'}
      </button>
    </form>
  )
}
