import type { z } from 'zod'
import { invalidParams } from './errors'

// Input checked with a zod schema, by the admin's forms in the browser and by the server actions and the command line
// alike: each bad field with its first problem. No server code here.

/** Field name → the first problem with it, as the forms show beside each field. */
export type FieldErrors = Record<string, string>

export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form')
    errors[field] ??= issue.message
  }
  return errors
}

/** The parsed value, or a 400 `rest_invalid_param` naming each bad field (lib/http/errors.ts invalidParams). */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw invalidParams(fieldErrorsOf(parsed.error))
  return parsed.data
}
