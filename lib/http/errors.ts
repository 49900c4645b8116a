import { ERROR_STATUS, type ErrorCode } from './error-codes'

/**
 * The one error type of the app. Lib code throws it; lib/http/route.ts turns it into WordPress's error shape:
 * `{"code": "...", "message": "...", "data": {"status": N, ...}}`. The status is the code's, from the one table.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: Record<string, unknown> = {},
    /** the table's, but for the one exception it notes (notSignedIn) */
    readonly status: number = ERROR_STATUS[code],
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export function invalidParams(params: Record<string, string>): ApiError {
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params })
}

export function noRoute(): ApiError {
  return new ApiError('rest_no_route', 'No route was found matching the URL and request method.')
}

export function invalidCredentials(): ApiError {
  return new ApiError('rest_invalid_credentials', 'The email address or password is incorrect, or the application password was revoked.')
}

/** No credentials at all, where the route needs them. */
export function notSignedIn(): ApiError {
  // The one status apart from the table (error-codes.ts): WordPress answers rest_forbidden with 401 to who sent none.
  return new ApiError('rest_forbidden', 'Sorry, you are not allowed to do that. Sign in or send an application password.', {}, 401)
}

/** Credentials, but not the right to this; also for what does not exist, so that nothing is revealed. */
export function forbidden(): ApiError {
  return new ApiError('rest_forbidden', 'Sorry, you are not allowed to do that.')
}

/** The codes of the refusals for now. */
type RefusalCode = { [C in ErrorCode]: (typeof ERROR_STATUS)[C] extends 429 ? C : never }[ErrorCode]

/** A refusal for now (429): `reason`, then when to try again, which route() also sends as Retry-After. */
export function tryAgainLater(code: RefusalCode, reason: string, seconds: number): ApiError {
  return new ApiError(code, `${reason} Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, { retryAfter: seconds })
}

/** A change to a post in the Trash, which must be restored first (WordPress's post.php): an edit, an upload. */
export function postInTrash(): ApiError {
  return new ApiError('rest_post_in_trash', 'You cannot edit this item because it is in the Trash. Please restore it and try again.')
}
