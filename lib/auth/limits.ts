import 'server-only'

// The longest credentials worth looking at. An address is at most 254 characters (RFC 5321's path limit less its
// angle brackets) and lib/users.ts refuses passwords over 1,024, so anything longer cannot be right: it is refused
// before it is hashed, counted or kept (a failed sign-in's key stays in memory for an hour).
export const MAX_EMAIL_LENGTH = 254
export const MAX_PASSWORD_LENGTH = 1024

// HTTP Basic carries `email:password` in base64 of UTF-8: at most 4 bytes a character, 4 characters per 3 bytes.
const MAX_BASIC_LENGTH = 4 * Math.ceil((4 * (MAX_EMAIL_LENGTH + MAX_PASSWORD_LENGTH) + 1) / 3)

export function isWithinCredentialLimits(email: string, password: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && password.length <= MAX_PASSWORD_LENGTH
}

/**
 * The email (lower-cased) and secret of an HTTP Basic header's value (after `Basic `); null when it is too long to
 * be credentials, is not base64, has no user or is over the limits. Length is checked before any decoding.
 */
export function decodeBasicCredentials(encoded: string): { email: string; secret: string } | null {
  if (encoded.length > MAX_BASIC_LENGTH || !/^[A-Za-z0-9+/]+=*$/.test(encoded)) return null
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 1) return null
  const email = decoded.slice(0, colon).toLowerCase()
  const secret = decoded.slice(colon + 1)
  return isWithinCredentialLimits(email, secret) ? { email, secret } : null
}
