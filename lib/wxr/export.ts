import 'server-only'
import { zonedDateTime } from '../dates'
import { getDb } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { attachmentUrl } from '../media/storage'
import { postUrl } from '../places/geojson'
import { effectivePrecision, PublicLocationRule, type Zone } from '../places/visibility'
import { cdata, escapeHtml, escapeXml } from '../content/xml'
import type { SiteSettings } from '../site'

// The whole site as a WordPress export (WXR 1.2, as wp-admin/includes/export.php writes it): what WordPress's own
// importer and `places import-wxr` read (docs/cli.md, "WordPress export"). Every post of every status, with its exact
// location and level as Geodata meta (geo_latitude, geo_longitude, geo_address, geo_public, and geo_precision, which
// WordPress keeps and ignores), categories, tags, comments, earlier slugs, and its photos as attachments.

export type WxrExportOptions = { siteUrl: string; settings: SiteSettings }

/** Posts read from the database at a time. */
const BATCH = 500

const POST_SELECT = {
  id: true,
  type: true,
  status: true,
  statusBeforeTrash: true,
  trashedAt: true,
  title: true,
  slug: true,
  content: true,
  excerpt: true,
  publishedAt: true,
  modifiedAt: true,
  latitude: true,
  longitude: true,
  address: true,
  locationPrecision: true,
  author: { select: { email: true } },
  categories: { select: { categoryId: true } },
  tags: { select: { tagId: true } },
  oldSlugs: { select: { slug: true } },
  comments: { select: { id: true, parentId: true, authorName: true, authorUrl: true, content: true, createdAt: true }, orderBy: { id: 'asc' } },
  attachments: {
    select: { id: true, position: true, title: true, caption: true, altText: true, filePath: true, mimeType: true, createdAt: true },
    orderBy: [{ position: 'asc' as const }, { id: 'asc' as const }],
  },
} satisfies Prisma.PostSelect

const tag = (name: string, value: string | number) => `<${name}>${typeof value === 'number' ? value : cdata(value)}</${name}>`
const meta = (key: string, value: string) => `\t\t<wp:postmeta>\n\t\t\t${tag('wp:meta_key', key)}\n\t\t\t${tag('wp:meta_value', value)}\n\t\t</wp:postmeta>\n`

/** WordPress's date fields: `2024-05-01 14:00:00`, on the site's wall clock or in UTC. */
const wpDate = (date: Date, timeZone: string) => zonedDateTime(date, timeZone).replace('T', ' ')

/**
 * Addresses on this site as absolute URLs, as WordPress exports them: the photos and pages a post links to are then
 * found wherever the file is imported (places import-wxr resolves them to what it imported).
 */
const absolute = (html: string, siteUrl: string) => html.replace(/(\s(?:src|href)=")\/(?!\/)/g, `$1${siteUrl}/`)

/** The site as WXR, a string at a time: a site of any size is never held in memory. */
export async function* writeWxr({ siteUrl, settings }: WxrExportOptions): AsyncGenerator<string> {
  const db = getDb()
  const [users, categories, tags, zones, lastPost] = await Promise.all([
    db.user.findMany({ where: { posts: { some: {} } }, select: { id: true, email: true, name: true }, orderBy: { id: 'asc' } }),
    db.category.findMany({ select: { id: true, name: true, slug: true, parentId: true }, orderBy: { id: 'asc' } }),
    db.tag.findMany({ select: { id: true, name: true, slug: true }, orderBy: { id: 'asc' } }),
    PublicLocationRule.load(db).then((rule) => rule.zones),
    db.post.aggregate({ _max: { id: true } }),
  ])
  // WordPress keeps posts and attachments in one table, so one id space: photos are numbered after the last post.
  const attachmentBase = lastPost._max.id ?? 0
  const { timezone } = settings
  yield `<?xml version="1.0" encoding="UTF-8" ?>
<!-- This is a WordPress eXtended RSS file written by Places: WordPress's importer (Tools → Import → WordPress) and places import-wxr read it. -->
<rss version="2.0"
	xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:wp="http://wordpress.org/export/1.2/"
>
<channel>
	<title>${escapeXml(settings.title)}</title>
	<link>${escapeXml(siteUrl)}</link>
	<description>${escapeXml(settings.tagline)}</description>
	<pubDate>${new Date().toUTCString()}</pubDate>
	<language>${escapeXml(settings.language)}</language>
	<wp:wxr_version>1.2</wp:wxr_version>
	<wp:base_site_url>${escapeXml(siteUrl)}</wp:base_site_url>
	<wp:base_blog_url>${escapeXml(siteUrl)}</wp:base_blog_url>
`
  // An author's login is their email: unique here, and what places import-wxr matches users by.
  for (const user of users) {
    yield `\t<wp:author><wp:author_id>${user.id}</wp:author_id>${tag('wp:author_login', user.email)}${tag('wp:author_email', user.email)}${tag('wp:author_display_name', user.name)}${tag('wp:author_first_name', '')}${tag('wp:author_last_name', '')}</wp:author>\n`
  }
  const categorySlugs = new Map(categories.map((c) => [c.id, c.slug]))
  for (const category of parentsFirst(categories)) {
    const parent = category.parentId === null ? '' : (categorySlugs.get(category.parentId) ?? '')
    yield `\t<wp:category><wp:term_id>${category.id}</wp:term_id>${tag('wp:category_nicename', category.slug)}${tag('wp:category_parent', parent)}${tag('wp:cat_name', category.name)}</wp:category>\n`
  }
  for (const t of tags) yield `\t<wp:tag><wp:term_id>${t.id}</wp:term_id>${tag('wp:tag_slug', t.slug)}${tag('wp:tag_name', t.name)}</wp:tag>\n`
  yield '\t<generator>Places</generator>\n'

  const categoryById = new Map(categories.map((c) => [c.id, c]))
  const tagById = new Map(tags.map((t) => [t.id, t]))
  let after = 0
  for (;;) {
    const posts = await db.post.findMany({ where: { id: { gt: after } }, orderBy: { id: 'asc' }, take: BATCH, select: POST_SELECT })
    for (const post of posts) {
      const terms = [
        ...post.categories.flatMap(({ categoryId }) => {
          const c = categoryById.get(categoryId)
          return c ? [`\t\t<category domain="category" nicename="${escapeXml(c.slug)}">${cdata(c.name)}</category>\n`] : []
        }),
        ...post.tags.flatMap(({ tagId }) => {
          const t = tagById.get(tagId)
          return t ? [`\t\t<category domain="post_tag" nicename="${escapeXml(t.slug)}">${cdata(t.name)}</category>\n`] : []
        }),
      ]
      yield item({
        title: post.title,
        link: postUrl(siteUrl, post.type, post.slug),
        date: post.publishedAt,
        creator: post.author.email,
        guid: `${siteUrl}/?p=${post.id}`,
        // One Custom HTML block: WordPress shows it as it is, where classic content would get wpautop's paragraphs again.
        content: post.content && `<!-- wp:html -->\n${absolute(post.content, siteUrl)}\n<!-- /wp:html -->`,
        // The excerpt is text; WordPress's is HTML.
        excerpt: escapeHtml(post.excerpt),
        id: post.id,
        modified: post.modifiedAt,
        name: post.slug,
        status: post.status,
        parent: 0,
        order: 0,
        type: post.type,
        timezone,
        extra: [...terms, ...postMeta(post, zones, attachmentBase), ...post.comments.map((comment) => commentXml(comment, siteUrl, timezone))].join(''),
      })
      for (const photo of post.attachments) {
        yield item({
          title: photo.title,
          link: attachmentUrl(photo.filePath),
          date: photo.createdAt,
          creator: post.author.email,
          guid: attachmentUrl(photo.filePath),
          content: '',
          excerpt: photo.caption,
          id: attachmentBase + photo.id,
          modified: photo.createdAt,
          name: '',
          status: 'inherit',
          parent: post.id,
          // WordPress orders a post's gallery by menu_order; places import-wxr too.
          order: photo.position,
          type: 'attachment',
          timezone,
          extra: [
            `\t\t<wp:attachment_url>${cdata(attachmentUrl(photo.filePath))}</wp:attachment_url>\n`,
            meta('_wp_attached_file', photo.filePath),
            photo.altText ? meta('_wp_attachment_image_alt', photo.altText) : '',
          ].join(''),
        })
      }
    }
    const last = posts.at(-1)
    if (!last) break
    after = last.id
  }
  yield '</channel>\n</rss>\n'
}

type Item = {
  title: string
  link: string
  date: Date
  creator: string
  guid: string
  content: string
  excerpt: string
  id: number
  modified: Date
  name: string
  status: string
  parent: number
  order: number
  type: string
  timezone: string
  /** terms, meta and comments, written */
  extra: string
}

function item(i: Item): string {
  return `	<item>
		<title>${cdata(i.title)}</title>
		<link>${escapeXml(i.link)}</link>
		<pubDate>${i.date.toUTCString()}</pubDate>
		<dc:creator>${cdata(i.creator)}</dc:creator>
		<guid isPermaLink="false">${escapeXml(i.guid)}</guid>
		<description></description>
		<content:encoded>${cdata(i.content)}</content:encoded>
		<excerpt:encoded>${cdata(i.excerpt)}</excerpt:encoded>
		<wp:post_id>${i.id}</wp:post_id>
		${tag('wp:post_date', wpDate(i.date, i.timezone))}
		${tag('wp:post_date_gmt', wpDate(i.date, 'UTC'))}
		${tag('wp:post_modified', wpDate(i.modified, i.timezone))}
		${tag('wp:post_modified_gmt', wpDate(i.modified, 'UTC'))}
		${tag('wp:comment_status', 'open')}
		${tag('wp:ping_status', 'closed')}
		${tag('wp:post_name', i.name)}
		${tag('wp:status', i.status)}
		<wp:post_parent>${i.parent}</wp:post_parent>
		<wp:menu_order>${i.order}</wp:menu_order>
		${tag('wp:post_type', i.type)}
		${tag('wp:post_password', '')}
		<wp:is_sticky>0</wp:is_sticky>
${i.extra}	</item>
`
}

type PostForMeta = {
  status: string
  statusBeforeTrash: string | null
  trashedAt: Date | null
  latitude: number | null
  longitude: number | null
  address: string
  locationPrecision: string
  oldSlugs: { slug: string }[]
  attachments: { id: number }[]
}

/**
 * The Geodata meta, with the level at least as coarse as the privacy zones make it (the zones do not travel with the
 * file: a post at home is no more public where it is imported); the featured photo, earlier slugs, and the Trash's.
 */
function postMeta(post: PostForMeta, zones: readonly Zone[], attachmentBase: number): string[] {
  const level = effectivePrecision(post, zones)
  const lines: string[] = []
  if (post.latitude !== null && post.longitude !== null) {
    lines.push(meta('geo_latitude', String(post.latitude)), meta('geo_longitude', String(post.longitude)))
  }
  if (post.address) lines.push(meta('geo_address', post.address))
  if (post.latitude !== null || post.address) lines.push(meta('geo_public', level === 'hidden' ? '0' : '1'), meta('geo_precision', level))
  const featured = post.attachments[0]
  if (featured) lines.push(meta('_thumbnail_id', String(attachmentBase + featured.id)))
  for (const { slug } of post.oldSlugs) lines.push(meta('_wp_old_slug', slug))
  if (post.status === 'trash') {
    if (post.statusBeforeTrash) lines.push(meta('_wp_trash_meta_status', post.statusBeforeTrash))
    if (post.trashedAt) lines.push(meta('_wp_trash_meta_time', String(Math.floor(post.trashedAt.getTime() / 1000))))
  }
  return lines
}

type CommentRow = { id: number; parentId: number | null; authorName: string; authorUrl: string; content: string; createdAt: Date }

/** A comment, approved (Places shows every comment it keeps); without email or IP address, which Places never keeps. */
function commentXml(comment: CommentRow, siteUrl: string, timezone: string): string {
  return `		<wp:comment>
			<wp:comment_id>${comment.id}</wp:comment_id>
			${tag('wp:comment_author', comment.authorName)}
			${tag('wp:comment_author_email', '')}
			${tag('wp:comment_author_url', comment.authorUrl)}
			${tag('wp:comment_author_IP', '')}
			${tag('wp:comment_date', wpDate(comment.createdAt, timezone))}
			${tag('wp:comment_date_gmt', wpDate(comment.createdAt, 'UTC'))}
			${tag('wp:comment_content', absolute(comment.content, siteUrl))}
			${tag('wp:comment_approved', '1')}
			${tag('wp:comment_type', 'comment')}
			<wp:comment_parent>${comment.parentId ?? 0}</wp:comment_parent>
			<wp:comment_user_id>0</wp:comment_user_id>
		</wp:comment>
`
}

/** Categories with each parent before its children, as WordPress's importer needs them (it looks a parent up as it goes). */
function parentsFirst<T extends { id: number; parentId: number | null }>(categories: T[]): T[] {
  const byId = new Map(categories.map((c) => [c.id, c]))
  const written = new Set<number>()
  const ordered: T[] = []
  const visit = (category: T, seen: Set<number>) => {
    if (written.has(category.id) || seen.has(category.id)) return
    seen.add(category.id)
    const parent = category.parentId === null ? undefined : byId.get(category.parentId)
    if (parent) visit(parent, seen)
    written.add(category.id)
    ordered.push(category)
  }
  for (const category of categories) visit(category, new Set())
  return ordered
}
