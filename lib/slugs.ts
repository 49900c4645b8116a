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
 * as wp_unique_post_slug does. The one rule for every new slug: posts (admin, imports) and categories. `searched`
 * is SlugsInUse's: per base, the suffix to start from, every one before it being taken.
 */
export function freeSlug(wanted: string, isTaken: (slug: string) => boolean, searched?: Map<string, number>): string {
  const base = slugBase(wanted)
  if (!isTaken(base)) return base
  let n = searched?.get(base) ?? 2
  while (isTaken(`${base}-${n}`)) n++
  searched?.set(base, n + 1)
  return `${base}-${n}`
}

/**
 * Slugs in use, handing out free ones by freeSlug's rule, each then in use. As they only grow, it remembers per base
 * how far the search went: the thousandth post of one title costs one lookup, not a thousand (imports of many places
 * named alike, BENCHMARKS.md).
 */
export class SlugsInUse {
  private readonly searched = new Map<string, number>()

  constructor(private readonly taken: Set<string>) {}

  take(wanted: string): string {
    const slug = freeSlug(wanted, (s) => this.taken.has(s), this.searched)
    this.taken.add(slug)
    return slug
  }
}
