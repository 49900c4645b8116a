// A title as WordPress keeps it may hold character references: wptexturize's and esc_html's numeric ones ("Rock&#8217;n
// roll", "&#039;") and the five of XML plus &nbsp; ("Lisbon &amp; Sintra"). The REST routes give titles as stored;
// pages and the map show them decoded (docs/content.md, "Titles"). Decoded only: a `<` in a title stays a `<`, never
// markup. Pure and small, so that the map's script shares it without a table of every HTML entity.

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** `title` with its character references decoded; any other `&…;` stays as written. */
export function titleText(title: string): string {
  if (!title.includes('&')) return title
  return title.replace(/&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-z]{2,6}));/g, (reference, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? reference
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex!, 16)
    // NUL, surrogates and what is past Unicode name no character.
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : reference
  })
}
