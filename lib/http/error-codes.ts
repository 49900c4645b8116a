/**
 * Every error code the app answers with, and its HTTP status: WordPress's `rest_*` names where WordPress has one.
 * docs/api.md (Errors) lists the same table for clients; error-codes.test.ts keeps the two equal.
 */
export const ERROR_STATUS = {
  rest_invalid_param: 400,
  rest_missing_callback_param: 400,
  places_invalid_import: 400,
  places_wxr_missing: 400,
  places_wxr_invalid: 400,
  places_post_delete: 400,
  places_media_import: 400,
  rest_invalid_credentials: 401,
  // 401 instead when no credentials were sent at all (notSignedIn), as WordPress's rest_authorization_required_code().
  rest_forbidden: 403,
  rest_cannot_create: 403,
  rest_cannot_publish: 403,
  rest_no_route: 404,
  rest_post_invalid_id: 404,
  rest_no_geodata: 404,
  rest_no_exif_gps: 404,
  rest_user_invalid_id: 404,
  rest_user_invalid_email: 404,
  rest_application_password_not_found: 404,
  rest_zone_invalid_id: 404,
  rest_trip_invalid_id: 404,
  rest_term_invalid: 404,
  oembed_invalid_url: 404,
  ogc_no_collection: 404,
  ogc_no_feature: 404,
  rest_post_in_trash: 409,
  rest_not_in_trash: 409,
  existing_user_email: 409,
  last_administrator: 409,
  places_not_empty: 409,
  rest_upload_file_too_big: 413,
  rest_upload_invalid_type: 415,
  rest_upload_unknown_error: 422,
  rest_upload_heic_time_limit: 422,
  too_many_sign_ins: 429,
  too_many_uploads: 429,
  too_many_previews: 429,
  internal_server_error: 500,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS
