/** The id of a field's error text, for aria-describedby. */
export function describedBy(fieldId: string, message: string | undefined, hint?: string): string | undefined {
  return [hint, message ? `${fieldId}-error` : undefined].filter(Boolean).join(' ') || undefined
}

/** A field's problem, beside it; the field names it with aria-describedby (describedBy above). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null
  return (
    <p id={`${id}-error`} className="field-error">
      {message}
    </p>
  )
}
