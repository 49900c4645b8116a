'use client'

import { useId, useState, type KeyboardEvent } from 'react'
import { tagNameSchema } from '@/lib/places/post-fields'

type Props = {
  tags: string[]
  /** known tags' names, suggested as one is typed */
  suggestions: string[]
  onChange: (tags: string[]) => void
  error?: string
}

/** A post's tags, as WordPress's tag box: typed, a comma or Enter adds them; known ones are suggested. */
export function TagInput({ tags, suggestions, onChange, error }: Props) {
  const id = useId()
  const [draft, setDraft] = useState('')
  const [draftError, setDraftError] = useState<string>()

  /** Adds every tag of `text` (comma-separated), each once, ignoring case; keeps what is after the last comma. */
  function add(text: string, keepLast: boolean) {
    const parts = text.split(',')
    const rest = keepLast ? (parts.pop() ?? '') : ''
    const next = [...tags]
    for (const part of parts) {
      if (part.trim() === '') continue
      const name = tagNameSchema.safeParse(part)
      if (!name.success) {
        setDraftError(`"${part.trim().slice(0, 40)}" ${name.error.issues[0]?.message ?? 'is not a tag'}.`)
        setDraft(text)
        return
      }
      // A known tag keeps its spelling, as the save would match it.
      const known = suggestions.find((s) => s.toLowerCase() === name.data.toLowerCase()) ?? name.data
      if (!next.some((t) => t.toLowerCase() === known.toLowerCase())) next.push(known)
    }
    setDraftError(undefined)
    setDraft(rest)
    if (next.length !== tags.length) onChange(next)
  }

  function onKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault() // add the tag, do not save the post
      add(draft, false)
    }
  }

  return (
    <fieldset className="tags" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Tags</legend>
      {tags.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ul className="chips" aria-label="Tags of this post">
          {tags.map((tag) => (
            <li key={tag.toLowerCase()}>
              {tag}
              <button type="button" className="chip-remove" aria-label={`Remove tag ${tag}`} onClick={() => onChange(tags.filter((t) => t !== tag))}>
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
        <label htmlFor={`${id}-new`}>Add tags</label>
        <input
          id={`${id}-new`}
          list={`${id}-known`}
          value={draft}
          autoComplete="off"
          aria-describedby={`${id}-hint${draftError ? ` ${id}-draft-error` : ''}`}
          aria-invalid={draftError ? true : undefined}
          onChange={(e) => (e.target.value.includes(',') ? add(e.target.value, true) : setDraft(e.target.value))}
          onKeyDown={onKey}
          onBlur={() => draft.trim() && add(draft, false)}
        />
        <datalist id={`${id}-known`}>
          {suggestions.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <p id={`${id}-hint`} className="hint">
          Separate tags with commas, or press Enter after each.
        </p>
        {draftError && (
          <p id={`${id}-draft-error`} className="field-error">
            {draftError}
          </p>
        )}
      </div>
    </fieldset>
  )
}
