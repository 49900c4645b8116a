// Pure: the editor's script shows the slug as it will be (slugBase), so nothing here may need Node.

/**
 * A URL slug as WordPress's sanitize_title makes one: lower case, accents dropped, anything but letters, digits,
 * `_` and `-` turned into single dashes. Letters of any script stay (a Japanese title keeps its characters).
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-/, '')
  // At most 190 UTF-16 units, never half of a pair (a lone surrogate is no text: stored, it comes back as U+FFFD),
  // and no dash left at the end of the cut.
  const end = slug.length > MAX_SLUG && isHighSurrogate(slug.charCodeAt(MAX_SLUG - 1)) ? MAX_SLUG - 1 : MAX_SLUG
  return slug.slice(0, end).replace(/-$/, '')
}

/** The longest slugify makes, leaving a suffix (`-2`…) room under the 200 characters WordPress allows. */
const MAX_SLUG = 190

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff
}

/** What a slug made from `wanted` (a title or a slug) starts with: slugify's, or `untitled` when that is empty. */
export function slugBase(wanted: string): string {
  return slugify(wanted) || 'untitled'
}

/**
 * The slug for `wanted` (a title or a slug) that `isTaken` refuses not: its base (slugBase), or `base-2`, `base-3`…,
 * as wp_unique_post_slug does. The one rule for every new slug: posts (admin, imports) and categories.
 */
export function freeSlug(wanted: string, isTaken: (slug: string) => boolean): string {
  return firstFree(slugBase(wanted), isTaken, 2)
}

/** `base` if free, else the first free of `base-from`, `base-(from + 1)`…; every suffix below `from` must be taken. */
export function firstFree(base: string, isTaken: (slug: string) => boolean, from: number): string {
  if (!isTaken(base)) return base
  let n = from
  while (isTaken(`${base}-${n}`)) n++
  return `${base}-${n}`
}
