import { parse } from '@wordpress/block-serialization-default-parser'
import { autop } from '@wordpress/autop'
import { cleanContent, contentFromClassic } from './html'

// A WordPress post's content as WordPress renders it (docs/content.md): block markup by WordPress's own parser, each
// block's saved HTML kept and its comments dropped; classic content (no blocks) through autop, as `the_content` does.

type Block = ReturnType<typeof parse>[number]

/** A block's saved HTML, its inner blocks in their places (innerContent holds null where each goes). */
function blockHtml(block: Block): string {
  // Between blocks, WordPress's own blank lines: freeform blocks of nothing.
  if (block.blockName === null) return block.innerHTML.trim() ? autop(block.innerHTML) : ''
  if (block.blockName === 'core/embed' && typeof block.attrs?.url === 'string') return embedHtml(block.attrs.url)
  let inner = 0
  return block.innerContent.map((chunk) => chunk ?? blockHtml(block.innerBlocks[inner++]!)).join('')
}

/** An embed, as a paragraph holding only its address: how content spells an embed here (lib/content/html.ts). */
function embedHtml(url: string): string {
  const escaped = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
  return `<p><a href="${escaped}">${escaped}</a></p>`
}

/** WordPress's content:encoded as content: blocks or classic, cleaned (lib/content/html.ts). */
export function contentFromWordPress(html: string, siteUrl?: string): string {
  if (!html.includes('<!-- wp:')) return contentFromClassic(html, siteUrl)
  return cleanContent(
    parse(html)
      .map((block) => blockHtml(block).trim())
      .filter(Boolean)
      .join('\n'),
    siteUrl,
  ).trim()
}
