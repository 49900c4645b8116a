import 'server-only'
import { getConfig } from '../config'
import { getDb } from '../db'
import { COORDINATE_DECIMALS } from '../geo/precision'
import { noRoute } from '../http/errors'
import { publicResponse, route } from '../http/route'
import { cleanContent } from '../content/html'
import { contentImagePaths, withContentPictures } from '../content/pictures'
import { summaryOf } from '../content/summary'
import { titleText } from '../content/title'
import { escapeHtml, escapeXml } from '../content/xml'
import { firstPictures, picturesAt } from '../media/pictures'
import { categoryAndDescendants } from './categories'
import { postUrl } from './geojson'
import { filteredMapUrl } from './post-page'
import { publicAnswer, type PublicAnswer } from './public'
import { parseMapState } from './schemas'
import { getSiteSettings, siteDescription } from '../site'

// The site's feeds, as WordPress's /feed/ (RSS 2.0) and /feed/atom/ (Atom 1.0), of the newest published posts of type
// `post`, with each post's place as GeoRSS-Simple's <georss:point> at what the public may see of it (visibility.ts).
// Written here rather than with a feed library: the ones on npm (feed, rss) add no namespaces to an item, so none can
// carry a georss:point. README, "Feeds"; docs/api.md, "Feeds".

/** How many posts a feed holds: WordPress's default (Settings → Reading). */
export const FEED_LENGTH = 10

export type FeedFormat = 'rss' | 'atom'

export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
}

/** A category (with its descendants) or a tag whose posts a feed holds. */
export type FeedTerm = { taxonomy: 'category' | 'tag'; id: number; name: string; slug: string }

// Bump when the feeds' markup changes, so that caches do not keep the old.
const FORMAT = 'places-feed-1'

/**
 * The category or tag with this id, or this slug (as its URL has it, percent-encoded), if a published post has it (a
 * category: it or one of its descendants), as a post's page would name it; else null, as for none: the name of a term
 * only drafts use is never shown, and whether it exists is not told.
 */
export async function findPublicTerm(taxonomy: FeedTerm['taxonomy'], key: { id: number } | { rawSlug: string }): Promise<FeedTerm | null> {
  let where: { id: number } | { slug: string }
  try {
    where = 'id' in key ? key : { slug: decodeURIComponent(key.rawSlug) }
  } catch {
    return null
  }
  const db = getDb()
  const select = { id: true, name: true, slug: true } as const
  const row = taxonomy === 'category' ? await db.category.findUnique({ where, select }) : await db.tag.findUnique({ where, select })
  if (!row) return null
  const published = { post: { status: 'publish' } }
  const used =
    taxonomy === 'category'
      ? await db.postCategory.findFirst({ where: { categoryId: { in: await categoryAndDescendants(db, row.id) }, ...published }, select: { postId: true } })
      : await db.postTag.findFirst({ where: { tagId: row.id, ...published }, select: { postId: true } })
  return used && { taxonomy, ...row }
}

/** The <link rel="alternate"> of the site's feed, and of the category's or tag's the home map shows (its searchParams). */
export async function feedLinks(searchParams: Record<string, string | string[] | undefined> = {}): Promise<{ title: string; url: string }[]> {
  const { categoryId, tagId } = parseMapState(searchParams)
  const [{ title }, ...terms] = await Promise.all([
    getSiteSettings(),
    categoryId && findPublicTerm('category', { id: categoryId }),
    tagId && findPublicTerm('tag', { id: tagId }),
  ])
  return [{ title, url: feedUrl('rss') }, ...terms.flatMap((term) => (term ? [{ title: `${title} » ${term.name}`, url: feedUrl('rss', term) }] : []))]
}

/** The address of a feed: the site's, or a category's or tag's, as WordPress's. */
export function feedUrl(format: FeedFormat, term: Pick<FeedTerm, 'taxonomy' | 'slug'> | null = null): string {
  const base = term ? `${getConfig().siteUrl}/${term.taxonomy}/${encodeURIComponent(term.slug)}/feed` : `${getConfig().siteUrl}/feed`
  return format === 'atom' ? `${base}/atom` : base
}

/** The feed as a public answer (lib/http/route.ts's publicResponse): one build per data version, each coding once. */
export function feedAnswer(format: FeedFormat, term: FeedTerm | null): Promise<PublicAnswer> {
  return publicAnswer('feed', { format, term }, () => buildFeed(format, term), { format: FORMAT })
}

type FeedItem = {
  /** a tag: URI (RFC 4151) of the site's host and the post's id, which a new slug does not change */
  id: string
  title: string
  url: string
  author: string
  publishedAt: Date
  modifiedAt: Date
  terms: string[]
  summary: string
  /** sanitised HTML, its links and images absolute */
  content: string
  /** the medium JPEG of the post's first public photo */
  image: string | null
  /** "lat lng", at the public's precision; null when the public sees no point */
  point: string | null
}

/** The feed's posts; `siteName` is the author of a post whose author's name may not be published. */
async function feedItems(term: FeedTerm | null, siteName: string): Promise<FeedItem[]> {
  const db = getDb()
  const inTerm =
    term === null
      ? {}
      : term.taxonomy === 'category'
        ? { categories: { some: { categoryId: { in: await categoryAndDescendants(db, term.id) } } } }
        : { tags: { some: { tagId: term.id } } }
  const posts = await db.post.findMany({
    where: { type: 'post', status: 'publish', ...inTerm },
    orderBy: [{ publishedAt: 'desc' }, { id: 'desc' }],
    take: FEED_LENGTH,
    select: {
      id: true,
      type: true,
      slug: true,
      title: true,
      content: true,
      excerpt: true,
      publishedAt: true,
      modifiedAt: true,
      publicLatitude: true,
      publicLongitude: true,
      author: { select: { name: true } },
      categories: { select: { category: { select: { name: true } } } },
      tags: { select: { tag: { select: { name: true } } } },
    },
  })
  const siteUrl = getConfig().siteUrl
  // Content is cleaned when a page shows it, as on every surface (docs/content.md), and its photos are their sizes.
  const contents = posts.map((post) => cleanContent(post.content, siteUrl))
  const [pictures, contentPictures] = await Promise.all([firstPictures(posts.map((post) => post.id)), picturesAt(contents.flatMap(contentImagePaths))])
  const host = new URL(siteUrl).host
  return posts.map((post, index) => {
    const content = contents[index]!
    return {
      id: `tag:${host},2026:post/${post.id}`,
      title: titleText(post.title),
      url: postUrl(siteUrl, post.type, post.slug),
      // A name that is an email address (an imported login, say) is not published.
      author: post.author.name && !post.author.name.includes('@') ? post.author.name : siteName,
      publishedAt: post.publishedAt,
      modifiedAt: post.modifiedAt,
      terms: [...post.categories.map(({ category }) => category.name), ...post.tags.map(({ tag }) => tag.name)],
      summary: summaryOf({ excerpt: post.excerpt, content }),
      content: absoluteAddresses(withContentPictures(content, contentPictures), siteUrl),
      image: pictures.get(post.id)?.src ?? null,
      point: post.publicLatitude === null || post.publicLongitude === null ? null : `${decimal(post.publicLatitude)} ${decimal(post.publicLongitude)}`,
    }
  })
}

/** A coordinate in plain decimals, never in exponent notation (`1e-7`), which GeoRSS readers do not take. */
const decimal = (degrees: number) => degrees.toFixed(COORDINATE_DECIMALS).replace(/\.?0+$/, '')

/** Cleaned content with its paths of this site (`href="/…"`, `src="/uploads/…"`) made absolute: a reader is elsewhere. */
export function absoluteAddresses(html: string, siteUrl: string): string {
  return html.replace(/ (href|src)="\/(?!\/)/g, ` $1="${siteUrl}/`)
}

const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`

async function buildFeed(format: FeedFormat, term: FeedTerm | null): Promise<string> {
  const settings = await getSiteSettings()
  const items = await feedItems(term, settings.title)
  const siteUrl = getConfig().siteUrl
  const channel = {
    title: term ? `${settings.title} » ${term.name}` : settings.title,
    description: siteDescription(settings),
    language: settings.language,
    home: term ? `${siteUrl}${filteredMapUrl('post', term.taxonomy, term.id)}` : `${siteUrl}/`,
    self: feedUrl(format, term),
    // A feed with no posts yet has changed when nothing had: the epoch, as a reader needs some date.
    updated: items.reduce((latest, item) => (item.modifiedAt > latest ? item.modifiedAt : latest), new Date(0)),
  }
  return format === 'rss' ? rss(channel, items) : atom(channel, items)
}

type Channel = { title: string; description: string; language: string; home: string; self: string; updated: Date }

function rss(channel: Channel, items: FeedItem[]): string {
  const entries = items.map((item) =>
    [
      '<item>',
      element('title', item.title),
      element('link', item.url),
      `<guid isPermaLink="false">${escapeXml(item.id)}</guid>`,
      element('dc:creator', item.author),
      element('pubDate', item.publishedAt.toUTCString()),
      ...item.terms.map((name) => element('category', name)),
      // RSS readers take a description as HTML: the text is escaped for HTML, then for XML.
      element('description', escapeHtml(item.summary)),
      element('content:encoded', item.content),
      // The RSS Advisory Board's profile: a length of 0 when the publisher does not know it.
      item.image ? `<enclosure url="${escapeXml(item.image)}" length="0" type="image/jpeg"/>` : '',
      item.point ? element('georss:point', item.point) : '',
      '</item>',
    ]
      .filter(Boolean)
      .join('\n'),
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss">
<channel>
${element('title', channel.title)}
<atom:link href="${escapeXml(channel.self)}" rel="self" type="application/rss+xml"/>
${element('link', channel.home)}
${element('description', channel.description)}
${element('lastBuildDate', channel.updated.toUTCString())}
${element('language', channel.language)}
<generator>Places</generator>
${entries.join('\n')}
</channel>
</rss>
`
}

function atom(channel: Channel, items: FeedItem[]): string {
  const entries = items.map((item) =>
    [
      '<entry>',
      element('title', item.title),
      `<link rel="alternate" type="text/html" href="${escapeXml(item.url)}"/>`,
      element('id', item.id),
      element('published', item.publishedAt.toISOString()),
      element('updated', item.modifiedAt.toISOString()),
      `<author>${element('name', item.author)}</author>`,
      ...item.terms.map((name) => `<category term="${escapeXml(name)}"/>`),
      element('summary', item.summary),
      `<content type="html">${escapeXml(item.content)}</content>`,
      item.image ? `<link rel="enclosure" type="image/jpeg" href="${escapeXml(item.image)}"/>` : '',
      item.point ? element('georss:point', item.point) : '',
      '</entry>',
    ]
      .filter(Boolean)
      .join('\n'),
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:georss="http://www.georss.org/georss" xml:lang="${escapeXml(channel.language)}">
${element('title', channel.title)}
${element('subtitle', channel.description)}
${element('id', channel.self)}
<link rel="self" type="application/atom+xml" href="${escapeXml(channel.self)}"/>
<link rel="alternate" type="text/html" href="${escapeXml(channel.home)}"/>
${element('updated', channel.updated.toISOString())}
<generator>Places</generator>
${entries.join('\n')}
</feed>
`
}

/** The route of a feed: the site's, or (with `taxonomy`) of the category or tag its `[slug]` names; 404 for none. */
export function feedRoute(format: FeedFormat, taxonomy: FeedTerm['taxonomy'] | null = null) {
  return route(
    async (request: Request, { params }: { params?: Promise<{ slug?: string }> }) => {
      // A route without a [slug] is given no params at all.
      const slug = (await params)?.slug
      const term = taxonomy === null || slug === undefined ? null : await findPublicTerm(taxonomy, { rawSlug: slug })
      if (taxonomy !== null && term === null) throw noRoute()
      return publicResponse(request, { ...(await feedAnswer(format, term)), contentType: FEED_CONTENT_TYPES[format] })
      // Public, as the GeoJSON routes: a reader in a browser page of another site may fetch it.
    },
    { cors: true },
  )
}
