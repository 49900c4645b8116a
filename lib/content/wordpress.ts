import { autop } from '@wordpress/autop'
import { parse } from '@wordpress/block-serialization-default-parser'
import { replace } from '@wordpress/shortcode'
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

// A caption's image (perhaps in a link), then its text: what WordPress's img_caption_shortcode reads.
const CAPTIONED = /^\s*((?:<a [^>]+>\s*)?<img [^>]+>\s*(?:<\/a>)?)([\s\S]*)$/i

/**
 * The shortcodes classic content uses most, as WordPress renders them: [caption] a figure, [embed] its address
 * (a video's becomes a card), [gallery] nothing, since the post's page shows its photos. Others stay as text.
 */
function renderShortcodes(html: string): string {
  let out = replace('caption', html, ({ content = '' }) => {
    const [, image, caption] = CAPTIONED.exec(content) ?? []
    return image ? `\n\n<figure>${image}<figcaption>${caption!.trim()}</figcaption></figure>\n\n` : content
  })
  out = replace('embed', out, ({ content = '' }) => `\n\n${embedHtml(content.trim())}\n\n`)
  return replace('gallery', out, () => '')
}

/** WordPress's content:encoded as content: blocks or classic, cleaned (lib/content/html.ts). */
export function contentFromWordPress(html: string, siteUrl?: string): string {
  if (!html.includes('<!-- wp:')) return contentFromClassic(renderShortcodes(html), siteUrl)
  return cleanContent(
    parse(html)
      .map((block) => blockHtml(block).trim())
      .filter(Boolean)
      .join('\n'),
    siteUrl,
  ).trim()
}
