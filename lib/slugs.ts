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
  return firstFree(slugBase(wanted), isTaken, 2)
}

/** `base` if free, else the first free of `base-from`, `base-(from + 1)`…; every suffix below `from` must be taken. */
function firstFree(base: string, isTaken: (slug: string) => boolean, from: number): string {
  if (!isTaken(base)) return base
  let n = from
  while (isTaken(`${base}-${n}`)) n++
  return `${base}-${n}`
}

/**
 * Slugs in use, handing out free ones by freeSlug's rule, each then in use. As they only grow, it remembers per base
 * how far the search went: the thousandth post of one title costs one lookup, not a thousand (imports of many places
 * named alike, BENCHMARKS.md).
 */
export class SlugsInUse {
  /** per base: the suffix its next search starts from, every one below it being in use */
  private readonly searched = new Map<string, number>()

  constructor(private readonly taken: Set<string>) {}

  take(wanted: string): string {
    const base = slugBase(wanted)
    const slug = firstFree(base, (s) => this.taken.has(s), this.searched.get(base) ?? 2)
    if (slug !== base) this.searched.set(base, Number(slug.slice(base.length + 1)) + 1)
    this.taken.add(slug)
    return slug
  }
}
