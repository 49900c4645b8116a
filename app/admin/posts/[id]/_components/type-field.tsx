'use client'

import { useState } from 'react'

// Not a valid type (lib/places/schemas.ts postTypeSchema), so no type can be taken for it.
const NEW_TYPE = '…new'

type Props = {
  /** the field's id; the text field for a new type is `${id}-new` */
  id: string
  value: string
  /** the site's types (listPostTypes) */
  types: string[]
  onChange: (type: string) => void
  onBlur?: () => void
  /** a name makes it part of a plain form post */
  name?: string
  invalid?: boolean
  describedBy?: string
}

/** A post's type: one of the site's types, or "New type…", which shows a field to name it. */
export function TypeField({ id, value, types, onChange, onBlur, name, invalid, describedBy }: Props) {
  // A value that is none of the site's types (typed before, or restored from an autosave) is a new type being named.
  const [naming, setNaming] = useState(() => !types.includes(value))
  return (
    <>
      <select
        id={id}
        name={naming ? undefined : name}
        value={naming ? NEW_TYPE : value}
        aria-invalid={!naming && invalid ? true : undefined}
        aria-describedby={naming ? undefined : describedBy}
        onChange={(event) => {
          const chosen = event.target.value
          setNaming(chosen === NEW_TYPE)
          onChange(chosen === NEW_TYPE ? '' : chosen)
        }}
      >
        {types.map((type) => (
          <option key={type} value={type}>
            {type}
          </option>
        ))}
        <option value={NEW_TYPE}>New type…</option>
      </select>
      {naming && (
        <>
          <label htmlFor={`${id}-new`} className="sub-label">
            New type’s name
          </label>
          <input
            id={`${id}-new`}
            name={name}
            value={value}
            placeholder="e.g. restaurant"
            aria-invalid={invalid ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => onChange(event.target.value)}
            onBlur={onBlur}
          />
        </>
      )}
    </>
  )
}
