import { autop } from '@wordpress/autop'
import { Parser } from 'htmlparser2'
import sanitizeHtml from 'sanitize-html'

// A post's content is HTML. This module is the one place that decides which HTML survives: on every write (the
// editor, the imports, the migration of plain text) and again on every render (the post page; docs/content.md).

/** Where the site's own uploads are served (app/uploads): the only images content may show. */
const UPLOADS_PATH = '/uploads/'

const BLOCKS = ['p', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'ul', 'ol', 'li', 'blockquote', 'hr', 'figure', 'figcaption']
const TABLES = ['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td']
const INLINE = ['a', 'strong', 'b', 'em', 'i', 'code', 'cite', 'br', 'img']

/**
 * A path of the uploads, as the browser will resolve `src` against this site, or null: `/uploads/../x` (or its
 * encoded or backslashed forms) leaves the uploads and is no upload, so no post makes its visitors ask for another path.
 */
function uploadsPath(src: string, siteUrl: string | undefined): string | null {
  const path = ownPath(src, siteUrl)
  if (path === null || /\\|%2e|%2f|%5c/i.test(path)) return null
  const resolved = new URL(path, 'https://site.invalid')
  return resolved.pathname.startsWith(UPLOADS_PATH) ? `${resolved.pathname}${resolved.search}` : null
}

/** `url` on this site, as a path: an absolute URL of the site's own origin made relative; else null. */
function ownPath(url: string, siteUrl: string | undefined): string | null {
  if (url.startsWith('/') && !url.startsWith('//')) return url
  if (!siteUrl) return null
  try {
    const parsed = new URL(url)
    return parsed.origin === new URL(siteUrl).origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : null
  } catch {
    return null
  }
}

function options(siteUrl?: string): sanitizeHtml.IOptions {
  return {
    allowedTags: [...BLOCKS, ...TABLES, ...INLINE],
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
      ol: ['start', 'reversed'],
      th: ['colspan', 'rowspan', 'scope'],
      td: ['colspan', 'rowspan'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    // Dropped with their text (a script's source is never shown). In full: this list replaces sanitize-html's own.
    nonTextTags: [
      ...['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template'],
      ...['xmp', 'listing', 'plaintext', 'noembed', 'noframes', 'title'],
    ],
    transformTags: {
      // The page's title is its one h1.
      h1: 'h2',
      a: (tagName, attribs) => {
        const { rel: _rel, ...rest } = attribs
        const external = attribs.href !== undefined && /^https?:/i.test(attribs.href) && ownPath(attribs.href, siteUrl) === null
        return { tagName, attribs: external ? { ...rest, rel: 'noopener' } : rest }
      },
      // An image of this site's uploads is kept; any other becomes a link to it, so no page loads a third party's file.
      img: (tagName, attribs): sanitizeHtml.Tag => {
        const path = attribs.src ? uploadsPath(attribs.src, siteUrl) : null
        if (path) return { tagName, attribs: { ...attribs, src: path, loading: 'lazy', decoding: 'async' } }
        if (attribs.src && /^https?:\/\//i.test(attribs.src))
          return { tagName: 'a', attribs: { href: attribs.src, rel: 'noopener' }, text: attribs.alt || attribs.src }
        // Not an address to link to (data:, a bare name): its alt text alone, in a tag that is not kept.
        return { tagName: 'span', attribs: {}, text: attribs.alt ?? '' }
      },
    },
    // A link that lost its address and holds nothing goes; one around an image keeps the image.
    exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href && !frame.text.trim() && frame.mediaChildren.length === 0,
  }
}

/**
 * `html` with only what content may hold (docs/content.md): no script, event handler, style, form or frame, links
 * only to http(s), mailto and this site, images only from its uploads. With `siteUrl`, absolute links to the site
 * count as its own.
 */
export function cleanContent(html: string, siteUrl?: string): string {
  return sanitizeHtml(html, options(siteUrl))
}

// Most imported content is one line of text, or paragraphs of text alone, which cleaning would leave as they are: told
// by a regular expression, ten times faster than parsing (a million-place import: BENCHMARKS.md).
const SIMPLE_TEXT = String.raw`(?:[^<>&\r\n]|&(?:amp|lt|gt);)*`
const SIMPLE_LINE = new RegExp(`^${SIMPLE_TEXT}$`)
const SIMPLE_PARAGRAPHS = new RegExp(`^(?:<p>${SIMPLE_TEXT}</p>)+$`)

/**
 * HTML written as WordPress's classic editor writes it (blank lines for paragraphs, line breaks kept) as content:
 * what imports take. Its paragraphs are made as WordPress's `wpautop` makes them, then it is cleaned.
 */
export function contentFromClassic(html: string, siteUrl?: string): string {
  if (!html.trim()) return ''
  if (SIMPLE_LINE.test(html)) return `<p>${html}</p>`
  if (SIMPLE_PARAGRAPHS.test(html)) return html.replaceAll('</p><p>', '</p>\n<p>')
  return cleanContent(autop(html.replace(/\r\n?/g, '\n')), siteUrl).trim()
}

// Where the text of content breaks: a blank line around a block, a line break at these.
const TEXT_PARAGRAPHS = new Set([...BLOCKS.filter((tag) => tag !== 'li'), 'table', 'div'])
const TEXT_LINES = new Set(['br', 'li', 'tr'])

/** The text of content: entities decoded, blank lines between blocks, for search, descriptions and plain formats. */
export function contentText(html: string): string {
  let text = ''
  let pre = 0
  const parser = new Parser(
    {
      // Line breaks in the markup are spaces, as a browser shows them; only `pre` keeps its own.
      ontext: (chunk) => {
        text += pre > 0 ? chunk : chunk.replace(/\s+/g, ' ')
      },
      onopentag: (name) => {
        if (name === 'pre') pre++
        if (TEXT_PARAGRAPHS.has(name)) text += '\n\n'
        else if (TEXT_LINES.has(name)) text += '\n'
        else if (name === 'td' || name === 'th') text += ' '
      },
      onclosetag: (name) => {
        if (name === 'pre') pre--
        if (TEXT_PARAGRAPHS.has(name)) text += '\n\n'
      },
    },
    { decodeEntities: true },
  )
  parser.end(html)
  return text
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
