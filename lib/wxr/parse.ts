import { createReadStream } from 'node:fs'
import sax from 'sax'

// A streaming reader of WordPress eXtended RSS (WXR 1.1/1.2, as Tools → Export and wp-admin/includes/export.php
// write it). It yields one record per <wp:author>, <wp:category> and <item>, holding only that element in memory,
// so a 200 MB export is read in constant space.

export type WxrAuthor = { kind: 'author'; login: string; email: string; displayName: string }
export type WxrCategory = { kind: 'category'; slug: string; parentSlug: string; name: string }
/** A <wp:comment>, without what Places never keeps of a commenter (email, IP address). */
export type WxrComment = {
  id: number
  /** the comment it answers; 0 for none */
  parentId: number
  author: string
  authorUrl: string
  date: string
  dateGmt: string
  content: string
  /** `1` approved, `0` waiting, `spam`, `trash` */
  approved: string
  /** empty or `comment` for a comment; `pingback`, `trackback`… */
  type: string
}
export type WxrItem = {
  kind: 'item'
  /** where the item starts in the file, for messages */
  line: number
  title: string
  guid: string
  creator: string
  content: string
  /** the excerpt; an attachment's caption */
  excerpt: string
  postId: number | null
  postDate: string
  postDateGmt: string
  postName: string
  status: string
  postParent: number
  menuOrder: number
  postType: string
  attachmentUrl: string
  /** the item's permalink on the exported site */
  link: string
  categories: { domain: string; slug: string; name: string }[]
  meta: Map<string, string>
  /** every _wp_old_slug of the post: the meta key that WordPress repeats, once per earlier slug */
  oldSlugs: string[]
  comments: WxrComment[]
}
/** The exported site's address (<wp:base_blog_url>), which its content's links and images start with. */
export type WxrSite = { kind: 'site'; url: string }
/** One of the exported site's settings, from its channel: <title>, <description> (its tagline) and <language>. */
export type WxrSetting = { kind: 'setting'; name: 'title' | 'tagline' | 'language'; value: string }
export type WxrRecord = WxrSite | WxrSetting | WxrAuthor | WxrCategory | WxrItem

const CHANNEL_SETTINGS: Record<string, WxrSetting['name']> = { title: 'title', description: 'tagline', language: 'language' }

export class WxrSyntaxError extends Error {}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** WordPress keeps term names HTML-escaped (`Food &amp; Drink`) and exports them so, inside CDATA. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
  })
}

const COMMENT_FIELDS: Record<string, 'author' | 'authorUrl' | 'date' | 'dateGmt' | 'content' | 'approved' | 'type'> = {
  'wp:comment_author': 'author',
  'wp:comment_author_url': 'authorUrl',
  'wp:comment_date': 'date',
  'wp:comment_date_gmt': 'dateGmt',
  'wp:comment_content': 'content',
  'wp:comment_approved': 'approved',
  'wp:comment_type': 'type',
}

const ITEM_FIELDS: Record<string, keyof WxrItem> = {
  title: 'title',
  guid: 'guid',
  'dc:creator': 'creator',
  'content:encoded': 'content',
  'excerpt:encoded': 'excerpt',
  'wp:post_date': 'postDate',
  'wp:post_date_gmt': 'postDateGmt',
  'wp:post_name': 'postName',
  'wp:status': 'status',
  'wp:post_type': 'postType',
  'wp:attachment_url': 'attachmentUrl',
  link: 'link',
}

function newItem(line: number): WxrItem {
  return {
    kind: 'item',
    line,
    title: '',
    guid: '',
    creator: '',
    content: '',
    excerpt: '',
    postId: null,
    postDate: '',
    postDateGmt: '',
    postName: '',
    status: '',
    postParent: 0,
    menuOrder: 0,
    postType: '',
    attachmentUrl: '',
    link: '',
    categories: [],
    meta: new Map(),
    oldSlugs: [],
    comments: [],
  }
}

/** Reads `file`, calling `onBytes` with the bytes read so far (for a progress bar). */
export async function* readWxr(file: string, onBytes?: (bytes: number) => void): AsyncGenerator<WxrRecord> {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true })
  const ready: WxrRecord[] = []
  const path: string[] = []
  let text = ''
  let item: WxrItem | null = null
  let author: Partial<WxrAuthor> | null = null
  let category: Partial<WxrCategory> | null = null
  let metaKey = ''
  let itemCategory: { domain: string; slug: string } | null = null
  let comment: WxrComment | null = null
  let sawRss = false

  parser.onerror = (error) => {
    throw new WxrSyntaxError(`The file is not well-formed XML (line ${parser.line + 1}): ${error.message.split('\n')[0]}`)
  }
  parser.onopentag = (tag) => {
    path.push(tag.name)
    text = ''
    if (path.length === 1) {
      if (tag.name !== 'rss') throw new WxrSyntaxError(`This is not a WordPress export: its root element is <${tag.name}>, not <rss>.`)
      sawRss = true
    }
    const parent = path[path.length - 2]
    if (tag.name === 'item' && parent === 'channel') item = newItem(parser.line + 1)
    else if (tag.name === 'wp:author' && parent === 'channel') author = {}
    else if (tag.name === 'wp:category' && parent === 'channel') category = {}
    else if (item && tag.name === 'wp:comment' && parent === 'item') {
      comment = { id: 0, parentId: 0, author: '', authorUrl: '', date: '', dateGmt: '', content: '', approved: '', type: '' }
    } else if (item && tag.name === 'category' && parent === 'item') {
      itemCategory = { domain: attribute(tag, 'domain'), slug: attribute(tag, 'nicename') }
    }
  }
  parser.ontext = (chunk) => {
    text += chunk
  }
  parser.oncdata = (chunk) => {
    text += chunk
  }
  parser.onclosetag = (name) => {
    const value = text.trim()
    const parent = path[path.length - 2]
    if (item && parent === 'item') {
      const field = ITEM_FIELDS[name]
      if (field) (item[field] as string) = name === 'content:encoded' ? text : value
      else if (name === 'wp:post_id') item.postId = /^\d+$/.test(value) ? Number(value) : null
      else if (name === 'wp:post_parent') item.postParent = Number(value) || 0
      else if (name === 'wp:menu_order') item.menuOrder = Number(value) || 0
      else if (name === 'category' && itemCategory) item.categories.push({ ...itemCategory, name: decodeEntities(value) })
    } else if (comment && parent === 'wp:comment') {
      const field = COMMENT_FIELDS[name]
      // The content keeps its spaces and line breaks: autop makes its paragraphs.
      // WordPress keeps a commenter's name and site escaped, as term names; the content is HTML.
      if (field) comment[field] = field === 'content' ? text : field === 'author' || field === 'authorUrl' ? decodeEntities(value) : value
      else if (name === 'wp:comment_id') comment.id = Number(value) || 0
      else if (name === 'wp:comment_parent') comment.parentId = Number(value) || 0
    } else if (item && parent === 'wp:postmeta') {
      if (name === 'wp:meta_key') metaKey = value
      else if (name === 'wp:meta_value' && metaKey === '_wp_old_slug') item.oldSlugs.push(value)
      else if (name === 'wp:meta_value') item.meta.set(metaKey, value)
    } else if (author && parent === 'wp:author') {
      if (name === 'wp:author_login') author.login = value
      else if (name === 'wp:author_email') author.email = value
      else if (name === 'wp:author_display_name') author.displayName = value
    } else if (category && parent === 'wp:category') {
      if (name === 'wp:category_nicename') category.slug = value
      else if (name === 'wp:category_parent') category.parentSlug = value
      else if (name === 'wp:cat_name') category.name = decodeEntities(value)
    }
    if (name === 'wp:base_blog_url' && parent === 'channel' && value) ready.push({ kind: 'site', url: value })
    // WordPress writes its settings escaped for HTML, as its term names.
    if (parent === 'channel' && CHANNEL_SETTINGS[name] && value) ready.push({ kind: 'setting', name: CHANNEL_SETTINGS[name], value: decodeEntities(value) })
    if (name === 'wp:comment' && comment && item && parent === 'item') {
      item.comments.push(comment)
      comment = null
    } else if (name === 'item' && item && parent === 'channel') {
      ready.push(item)
      item = null
    } else if (name === 'wp:author' && author && parent === 'channel') {
      ready.push({ kind: 'author', login: author.login ?? '', email: author.email ?? '', displayName: author.displayName ?? '' })
      author = null
    } else if (name === 'wp:category' && category && parent === 'channel') {
      ready.push({ kind: 'category', slug: category.slug ?? '', parentSlug: category.parentSlug ?? '', name: category.name ?? category.slug ?? '' })
      category = null
    }
    path.pop()
    text = ''
  }

  const decoder = new TextDecoder('utf-8')
  let bytes = 0
  for await (const chunk of createReadStream(file)) {
    bytes += (chunk as Buffer).byteLength
    parser.write(decoder.decode(chunk as Buffer, { stream: true }))
    onBytes?.(bytes)
    yield* ready.splice(0)
  }
  parser.write(decoder.decode()).close()
  yield* ready.splice(0)
  if (!sawRss) throw new WxrSyntaxError('The file is empty or is not a WordPress export (no <rss> element).')
}

/** An attribute's text: the parser runs without namespaces (xmlns off), so an attribute is a plain string. */
function attribute(tag: sax.Tag | sax.QualifiedTag, name: string): string {
  const value = tag.attributes[name]
  return typeof value === 'string' ? value : (value?.value ?? '')
}
