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

/** `base`, or `base-2`, `base-3`… : the first that `isTaken` refuses, as wp_unique_post_slug does. */
export function uniqueSlug(base: string, isTaken: (slug: string) => boolean): string {
  const root = base || 'untitled'
  if (!isTaken(root)) return root
  for (let n = 2; ; n++) if (!isTaken(`${root}-${n}`)) return `${root}-${n}`
}
