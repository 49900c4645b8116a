/**
 * The one error type of the app. Lib code throws it; lib/http/route.ts turns it into WordPress's error shape:
 * `{"code": "...", "message": "...", "data": {"status": N, ...}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export function invalidParams(params: Record<string, string>): ApiError {
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 400, { params })
}

export function noRoute(): ApiError {
  return new ApiError('rest_no_route', 'No route was found matching the URL and request method.', 404)
}
