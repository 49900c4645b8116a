// What a post's status is given its date, as WordPress's wp_insert_post decides it: pure, so that the editor (in the
// browser) labels its button by the same rule the server applies on save. No Prisma here: it is imported client-side.

/** A year, in milliseconds: a date further ahead than this is likely a typo (2999 for 2029), so the editor warns. */
export const FAR_FUTURE_MS = 365 * 24 * 60 * 60 * 1000

/**
 * The status a post gets when saved as `requested` with publish date `date`: "publish" with a date after `now` is
 * scheduled ("future"); "future" with a date that is not after `now` is published; any other status is kept.
 */
export function effectiveStatus(requested: string, date: Date, now: Date): string {
  if (requested === 'publish' && date.getTime() > now.getTime()) return 'future'
  if (requested === 'future' && date.getTime() <= now.getTime()) return 'publish'
  return requested
}

/** Whether `date` is more than FAR_FUTURE_MS after `now`. */
export function isFarFuture(date: Date, now: Date): boolean {
  return date.getTime() - now.getTime() > FAR_FUTURE_MS
}
