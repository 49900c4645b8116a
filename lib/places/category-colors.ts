// The map's colours of categories (docs/api.md, Colours): a top-level category's own, set by an editor, or the
// palette's; a subcategory shows its top-level category's. Read by the server and the browser alike.

/**
 * The palette, in the order top-level categories were made: twelve hues, each at least 4.5:1 against white, so a dot
 * stands out from its white ring and from the land; none is the blue of no category. Neighbours in the list differ in
 * lightness as well as hue, but twelve colours cannot all stay apart for every colour blindness: the legend names each.
 */
export const PALETTE = [
  '#c2410c',
  '#047857',
  '#6d28d9',
  '#0e7490',
  '#be185d',
  '#374151',
  '#a16207',
  '#4d7c0f',
  '#9f1239',
  '#4338ca',
  '#7c2d12',
  '#a21caf',
] as const

/** The colour of a place with no category: the map's blue of before. */
export const NO_CATEGORY_COLOR = '#2271b1'

const COLOR = /^#[0-9a-f]{6}$/

/**
 * A colour as the site keeps it, `#rrggbb` in lower case, or null for anything else. Colours go into the markers'
 * HTML and the pages' styles: nothing but this form is ever written or shown.
 */
export function parseColor(value: string | null | undefined): string | null {
  const color = value?.trim().toLowerCase()
  return color && COLOR.test(color) ? color : null
}

/** The colour of the `position`-th top-level category (by id): its own when it has one, else the palette's. */
export function topLevelColor(own: string | null, position: number): string {
  return parseColor(own) ?? PALETTE[position % PALETTE.length]!
}

/** The colour of each category of a tree (CategoryNode), checked again where it is drawn. */
export function colorMap(tree: readonly { id: number; color: string }[]): Map<number, string> {
  return new Map(tree.map((node) => [node.id, parseColor(node.color) ?? NO_CATEGORY_COLOR]))
}

/** A place's colour: that of its first category, the one of lowest id (docs/api.md, Colours). */
export function placeColor(categories: readonly { id: number }[], colors: ReadonlyMap<number, string>): string {
  const first = categories.reduce<number | null>((lowest, { id }) => (lowest === null || id < lowest ? id : lowest), null)
  return (first !== null && colors.get(first)) || NO_CATEGORY_COLOR
}

/**
 * A mix of colours as CSS: each colour's share of the circle by its count, the largest first (a conic gradient), or
 * the one colour alone. Colours that come twice are added up.
 */
export function mixOf(parts: readonly { color: string; count: number }[]): string {
  const shares = new Map<string, number>()
  for (const { color, count } of parts) if (count > 0) shares.set(color, (shares.get(color) ?? 0) + count)
  if (shares.size <= 1) return shares.keys().next().value ?? NO_CATEGORY_COLOR
  const total = [...shares.values()].reduce((sum, count) => sum + count, 0)
  let start = 0
  const stops = [...shares]
    .sort(([, a], [, b]) => b - a)
    .map(([color, count]) => {
      const end = start + (count / total) * 100
      const stop = `${color} ${start.toFixed(1)}% ${end.toFixed(1)}%`
      start = end
      return stop
    })
  return `conic-gradient(${stops.join(', ')})`
}
