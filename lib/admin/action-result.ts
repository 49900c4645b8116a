import 'server-only'
import { unstable_rethrow } from 'next/navigation'
import { ApiError } from '../http/errors'
import type { FieldErrors } from '../http/params'

/** What a server action answers: its result, or a message and the problem with each field. */
export type ActionResult<T = null> = { ok: true; data: T } | { ok: false; message: string; fieldErrors: FieldErrors }

/**
 * The one place where the admin's server actions turn errors into answers, as lib/http/route.ts does for the REST
 * routes: an ApiError gives its message (and its `params` as field errors); anything unexpected is logged and
 * answered with a bare message. Next's own redirects pass through.
 */
export async function runAction<T>(name: string, action: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await action() }
  } catch (error) {
    unstable_rethrow(error)
    if (error instanceof ApiError) {
      const params = error.data.params
      const fieldErrors = params && typeof params === 'object' ? (params as FieldErrors) : {}
      const message = Object.keys(fieldErrors).length > 0 && error.code === 'rest_invalid_param' ? 'Please correct the fields marked.' : error.message
      return { ok: false, message, fieldErrors }
    }
    console.error(`admin action ${name} failed:`, error)
    return { ok: false, message: 'The server could not do this. Nothing was changed.', fieldErrors: {} }
  }
}
