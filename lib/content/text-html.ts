import { autop } from '@wordpress/autop'

// Plain text as HTML, apart from html.ts and its sanitiser: the migration of plain-text content runs it, and every
// command of the command line checks the migrations first (docs/content.md).

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/** Plain text as HTML that shows it the same: escaped, paragraphs at blank lines, a `<br>` at each other line break. */
export function htmlFromText(text: string): string {
  if (!text.trim()) return ''
  return autop(text.replace(/\r\n?/g, '\n').replace(/[&<>"]/g, (c) => escapes[c]!)).trim()
}
