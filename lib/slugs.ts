/**
 * A URL slug as WordPress's sanitize_title makes one: lower case, accents dropped, anything but letters, digits,
 * `_` and `-` turned into single dashes. Letters of any script stay (a Japanese title keeps its characters).
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 190)
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
  const base = slugBase(wanted)
  if (!isTaken(base)) return base
  for (let n = 2; ; n++) if (!isTaken(`${base}-${n}`)) return `${base}-${n}`
}
