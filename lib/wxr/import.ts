import 'server-only'
import { open, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { getConfig } from '../config'
import { cleanContent, contentFromClassic, contentText } from '../content/html'
import { contentFromWordPress } from '../content/wordpress'
import { lockTables, transaction, type Tx } from '../db'
import { ApiError } from '../http/errors'
import { pointOf, storeImage, titleFromFilename, type StoredImage } from '../media/storage'
import { maxPostId, PostBatch, PostSlugs } from '../places/batch'
import { isPostTypeKey, MAX_EXCERPT, MAX_TAGS, postTypeSchema, STATUSES, tagNameSchema } from '../places/post-fields'
import { isLocationPrecision, LOCATION_PRECISIONS, type LocationPrecision } from '../places/location-levels'
import { postUrl } from '../places/geojson'
import { oldPathOf } from '../places/old-slugs'
import { searchColumns } from '../places/search'
import { levelOfNewPost } from '../places/visibility'
import { freeSlug, slugify } from '../slugs'
import { fillSiteSettings, type SiteSettingName, type SiteSettings } from '../site'
import { firstAdministratorId } from '../users'
import { AttachmentMetadataError, originalOf, readAttachmentMetadata } from './attachment-metadata'
import { markOldAddresses, oldSite, resolveMarkedAddresses, uploadKey, type OldSite, type PostReference } from './old-site'
import { readWxr, WxrSyntaxError, type WxrCategory, type WxrComment, type WxrItem, type WxrRecord } from './parse'

export type WxrOptions = {
  /** WordPress's wp-content/uploads: attachment files are read from here by their _wp_attached_file */
  uploadsDir?: string
  /** bytes of the file read so far, of the total */
  onProgress?: (done: number, total: number) => void
  /** attachments looked at so far, of those in the file: storing photos is the long part of an import */
  onPhotos?: (done: number, total: number) => void
  /** import everything in the transaction, then roll it back: the summary of what an import would do */
  dryRun?: boolean
}

/** Thrown at the end of a dry run's transaction, which rolls it back, with what was done in it. */
class DryRunDone extends Error {
  constructor(readonly summary: WxrSummary) {
    super('dry run')
  }
}

/** An item whose WordPress id was taken on this site (or out of range), and the id it got instead. */
export type WxrRenumbered = { kind: 'post' | 'attachment'; wordpressId: number; id: number }

/**
 * WordPress id → id here, as strings → numbers (JSON's keys), of every post and attachment of the file that is on
 * the site after the import, whether this run or an earlier one imported it: what `places import-wxr --map` writes.
 */
export type WxrIdMap = { posts: Record<string, number>; attachments: Record<string, number> }

export type WxrSummary = {
  /** authors that were created, without a usable password until one is set */
  newUsers: string[]
  categories: number
  /** tags that were created */
  tags: number
  posts: number
  /** approved comments of the posts imported */
  comments: number
  attachments: number
  /** items already imported by an earlier run (same WordPress GUID) */
  skipped: number
  /** items that could not keep their WordPress id */
  renumbered: WxrRenumbered[]
  /**
   * What Places does not keep, left out on purpose, by kind: WordPress's own bookkeeping by post type (`revision`,
   * `nav_menu_item`…), `auto-draft`, comments not approved (`unapproved comment`, `spam comment`, `trashed comment`),
   * pings (`pingback`, `trackback`), and terms of other taxonomies than categories and tags (`post_format`…).
   */
  leftOut: Record<string, number>
  ids: WxrIdMap
  /** items not imported, or imported without part of their data, each naming the item */
  warnings: string[]
  /** the site's settings this import set from the export (those that had never been set: lib/site.ts) */
  settings: SiteSettingName[]
  /** attachments not imported for want of their files: no uploads folder was given (each is a warning too) */
  photosWithoutFiles: number
}

/** The longest commenter's name or address kept. */
const MAX_COMMENT_AUTHOR = 1000

/** Whether a comment is shown here: an approved comment, not a ping (WordPress's comment_type). */
function isKeptComment(comment: WxrComment): boolean {
  return comment.approved === '1' && (comment.type === '' || comment.type === 'comment')
}

/** What a comment left out is, in the summary. */
function commentKind({ approved, type }: WxrComment): string {
  if (type !== '' && type !== 'comment') return type
  return approved === 'spam' ? 'spam comment' : approved === 'trash' ? 'trashed comment' : 'unapproved comment'
}

/** Old addresses written a statement at a time (within what a statement may bind on SQLite). */
const OLD_PATHS_PER_QUERY = 400

// WordPress's own bookkeeping, not content.
const INTERNAL_TYPES = new Set([
  'revision',
  'nav_menu_item',
  'custom_css',
  'customize_changeset',
  'oembed_cache',
  'user_request',
  'wp_block',
  'wp_template',
  'wp_template_part',
  'wp_global_styles',
  'wp_navigation',
  'wp_font_family',
  'wp_font_face',
])
const STATUS_SET = new Set<string>(STATUSES)
const MAX_ID = 2_147_483_647
/** Items looked up in the database at once (by GUID, by id) before they are written. */
const LOOKUP = 500

/** What the database held before this import, for one lookup's items (posts or attachments). */
type Known = { importedByGuid: Map<string, number>; takenIds: Set<number> }

/** The WordPress id of an item, where it can be an id here. */
function wantedId(item: WxrItem): number | null {
  return item.postId !== null && item.postId > 0 && item.postId <= MAX_ID ? item.postId : null
}

/**
 * Imports a WordPress export (WXR) in one transaction: authors, the category tree, posts of every type and status
 * with their dates, slugs and ids (where free), the Geodata meta, and attachments with their files and GPS.
 * Items already imported (by GUID) are skipped, so a second run imports nothing twice. A fatal error (the file is
 * not well-formed XML, say) imports nothing; problems with one item are warnings naming it.
 */
export async function importWxr(file: string, options: WxrOptions = {}): Promise<WxrSummary> {
  const total = (await stat(file).catch(() => null))?.size
  if (total === undefined) throw new ApiError('places_wxr_missing', `Cannot read ${file}: no such file.`)
  const stored: StoredImage[] = []
  try {
    return await transaction(
      async (tx) => {
        const summary = await new WxrImport(tx, options, stored).run(readWxr(file, (bytes) => options.onProgress?.(bytes, total)))
        if (options.dryRun) throw new DryRunDone(summary)
        return summary
      },
      { maxWait: 60_000, timeout: 24 * 3_600_000 },
    )
  } catch (error) {
    await Promise.all(stored.map((image) => image.discard()))
    if (error instanceof DryRunDone) return error.summary
    if (error instanceof WxrSyntaxError) throw new ApiError('places_wxr_invalid', `Nothing was imported. ${error.message}`)
    throw error
  }
}

function describe(item: WxrItem): string {
  return `item "${item.title || '(no title)'}" (WordPress id ${item.postId ?? '?'}, line ${item.line})`
}

/** WordPress writes dates as `2024-05-01 12:00:00`; the GMT one is all zeros for drafts never saved with a date. */
function wpDate({ postDateGmt, postDate }: { postDateGmt: string; postDate: string }): Date {
  for (const text of [postDateGmt, postDate]) {
    const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text)
    if (match && !text.startsWith('0000')) {
      const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`)
      if (!Number.isNaN(date.getTime())) return date
    }
  }
  return new Date()
}

class WxrImport {
  private readonly summary: WxrSummary = {
    newUsers: [],
    categories: 0,
    tags: 0,
    posts: 0,
    comments: 0,
    attachments: 0,
    skipped: 0,
    renumbered: [],
    leftOut: {},
    ids: { posts: {}, attachments: {} },
    warnings: [],
    settings: [],
    photosWithoutFiles: 0,
  }
  private readonly userByLogin = new Map<string, number>()
  private readonly pendingCategories: WxrCategory[] = []
  private categoryBySlug = new Map<string, number>()
  /** tags by lower-cased name, as resolveTagNames matches them; and the slugs taken */
  private readonly tagByName = new Map<string, number>()
  private readonly tagSlugs = new Set<string>()
  private readonly postIdByWpId = new Map<number, number>()
  private readonly slugs: PostSlugs
  private readonly batch: PostBatch
  /** ids of the posts this import adds */
  private readonly takenIds = new Set<number>()
  /** GUIDs of the posts this import adds, with their ids */
  private readonly postGuids = new Map<string, number>()
  /** GUIDs of the attachments this import adds, with their ids */
  private readonly attachmentGuids = new Map<string, number>()
  /** posts whose WordPress id is taken: given new ids at the end, past every id the file keeps */
  private readonly deferred: WxrItem[] = []
  private readonly attachments: WxrItem[] = []
  /** WordPress shares one id space between posts and attachments; here they are two tables, each keeping its ids */
  private readonly attachmentIdByWpId = new Map<number, number>()
  private readonly takenAttachmentIds = new Set<number>()
  private readonly deferredAttachments: WxrItem[] = []
  private maxAttachmentId = 0
  /** _thumbnail_id: the featured image's WordPress id → the WordPress id of the first post that features it */
  private readonly featuredBy = new Map<number, number>()
  /** each attachment's place among its post's photos, decided once every item was read */
  private readonly positions = new Map<WxrItem, number>()
  /** the posts' earlier slugs (_wp_old_slug), written once the posts are */
  private readonly oldSlugs = new Map<string, { type: string; slug: string; postId: number }>()
  /** the exported site (<wp:base_blog_url>), whose addresses in content are rewritten (lib/wxr/old-site.ts) */
  private oldSite: OldSite | null = null
  private readonly channelSettings: Partial<SiteSettings> = {}
  /** the posts whose content has addresses on the old site, resolved once the posts and photos are in place */
  private readonly withOldAddresses = new Set<number>()
  /** each photo imported, by its upload's key (uploadKey), at its address here */
  private readonly uploadsHere = new Map<string, string>()
  /** each post imported, at its page's path here, by WordPress id and by WordPress slug (the first of a slug) */
  private readonly pagesByWpId = new Map<number, string>()
  private readonly pagesByWpSlug = new Map<string, string>()
  /** the types of the posts imported (and WordPress's two): `/{type}/{slug}` is a page of this site's */
  private readonly typesHere = new Set(['post', 'page'])
  /** the addresses the posts had on the old site (post_old_paths), by path, written once the posts are */
  private readonly oldPaths = new Map<string, number>()
  /** the approved comments of the posts imported, by post id here, written once the posts are */
  private readonly comments = new Map<number, WxrComment[]>()
  private maxId = 0
  private fallbackAuthor: number | undefined

  constructor(
    tx: Tx,
    private readonly options: WxrOptions,
    private readonly stored: StoredImage[],
  ) {
    // Read in one pass: how many posts are coming is not known, so the indexes stay (lib/db, bulkInsert).
    this.batch = new PostBatch(tx, 0)
    this.slugs = new PostSlugs(this.batch)
  }

  /** The transaction, for a query, once the chunk being written is written (PostBatch.whenWritten). */
  private tx(): Promise<Tx> {
    return this.batch.whenWritten()
  }

  async run(records: AsyncIterable<WxrRecord>): Promise<WxrSummary> {
    try {
      return await this.importRecords(records)
    } finally {
      await this.batch.settle() // no write outlives the transaction, whatever ended the import
    }
  }

  private async importRecords(records: AsyncIterable<WxrRecord>): Promise<WxrSummary> {
    const tx = await this.tx()
    await lockTables(tx, ['posts', 'categories', 'tags', 'users', 'attachments'])
    this.maxId = await maxPostId(tx)
    this.maxAttachmentId = (await tx.attachment.aggregate({ _max: { id: true } }))._max.id ?? 0
    for (const row of await tx.category.findMany({ select: { id: true, slug: true } })) this.categoryBySlug.set(row.slug, row.id)
    for (const row of await tx.tag.findMany({ select: { id: true, name: true, slug: true } })) {
      if (!this.tagByName.has(row.name.toLowerCase())) this.tagByName.set(row.name.toLowerCase(), row.id)
      this.tagSlugs.add(row.slug)
    }

    // Posts are looked up LOOKUP at a time; an author or category between them is taken in its place in the file.
    const items: WxrItem[] = []
    for await (const record of records) {
      if (record.kind === 'item' && record.postType === 'attachment') this.attachments.push(record)
      else if (record.kind === 'item') items.push(record)
      if (items.length === LOOKUP || (record.kind !== 'item' && items.length > 0)) await this.addPosts(items.splice(0))
      if (record.kind === 'site') this.oldSite = oldSite(record.url)
      if (record.kind === 'setting') this.channelSettings[record.name] = record.value
      if (record.kind === 'author') await this.addAuthor(record.login, record.email, record.displayName)
      else if (record.kind === 'category') this.pendingCategories.push(record)
    }
    await this.addPosts(items)
    await this.createCategories()
    for (const item of this.deferred) await this.addPost(item, null)
    this.arrangeAttachments()
    for (let start = 0; start < this.attachments.length; start += LOOKUP) await this.addAttachments(this.attachments.slice(start, start + LOOKUP))
    for (const item of this.deferredAttachments) {
      await this.addAttachment(item, null)
      this.photoDone()
    }
    await this.batch.finish()
    for (const old of this.oldSlugs.values()) {
      await tx.postOldSlug.upsert({ where: { type_slug: { type: old.type, slug: old.slug } }, create: old, update: { postId: old.postId } })
    }
    // The addresses the posts had on the old site; one an earlier import gave another post is this one's now.
    const oldPaths = [...this.oldPaths].map(([path, postId]) => ({ path, postId }))
    for (let start = 0; start < oldPaths.length; start += OLD_PATHS_PER_QUERY) {
      const chunk = oldPaths.slice(start, start + OLD_PATHS_PER_QUERY)
      await tx.postOldPath.deleteMany({ where: { path: { in: chunk.map((old) => old.path) } } })
      await tx.postOldPath.createMany({ data: chunk })
    }
    for (const [postId, comments] of this.comments) await this.writeComments(tx, postId, comments)
    this.summary.settings = await fillSiteSettings(tx, this.channelSettings)
    await this.resolveOldAddresses(tx)
    for (const [wpId, id] of this.postIdByWpId) this.summary.ids.posts[wpId] = id
    for (const [wpId, id] of this.attachmentIdByWpId) this.summary.ids.attachments[wpId] = id
    return this.summary
  }

  /** Adds posts in the file's order, looked up in the database all at once first. */
  private async addPosts(items: WxrItem[]): Promise<void> {
    const guids = items.flatMap((item) => item.guid || [])
    const ids = items.flatMap((item) => wantedId(item) ?? [])
    const tx = await this.tx()
    const [imported, taken] = await Promise.all([
      guids.length > 0 ? tx.post.findMany({ where: { sourceGuid: { in: guids } }, select: { id: true, sourceGuid: true } }) : [],
      ids.length > 0 ? tx.post.findMany({ where: { id: { in: ids } }, select: { id: true } }) : [],
    ])
    const known: Known = {
      importedByGuid: new Map(imported.map((row) => [row.sourceGuid ?? '', row.id])),
      takenIds: new Set(taken.map((row) => row.id)),
    }
    for (const item of items) await this.addPost(item, known)
  }

  private warn(message: string): void {
    this.summary.warnings.push(message)
  }

  private leaveOut(kind: string, count = 1): void {
    if (count > 0) this.summary.leftOut[kind] = (this.summary.leftOut[kind] ?? 0) + count
  }

  /**
   * Where each attachment goes among its post's photos. WordPress's menu_order where the post's attachments have one;
   * where they do not (all 0, as uploads leave them), the featured image (_thumbnail_id) comes first, then the others
   * by upload date (created_at), as WordPress lists them. A featured image attached to no post (uploaded to the Media
   * Library, then chosen) joins the post that features it.
   */
  private arrangeAttachments(): void {
    const byWpId = new Map(this.attachments.flatMap((item) => (item.postId === null ? [] : [[item.postId, item] as const])))
    for (const [attachmentId, postWpId] of this.featuredBy) {
      const attachment = byWpId.get(attachmentId)
      if (attachment && attachment.postParent === 0) attachment.postParent = postWpId
      else if (attachment && attachment.postParent !== postWpId) {
        this.warn(
          `attachment ${describe(attachment)}: the featured image of WordPress post ${postWpId} belongs to post ${attachment.postParent}, where it is imported; post ${postWpId} has no featured photo`,
        )
      }
    }
    const byPost = new Map<number, WxrItem[]>()
    for (const item of this.attachments) {
      const list = byPost.get(item.postParent)
      if (list) list.push(item)
      else byPost.set(item.postParent, [item])
    }
    for (const [postWpId, attachments] of byPost) {
      const explicit = attachments.some((item) => item.menuOrder !== 0)
      for (const item of attachments) {
        const featured = item.postId !== null && this.featuredBy.get(item.postId) === postWpId
        this.positions.set(item, explicit ? item.menuOrder : featured ? 0 : 1)
      }
    }
  }

  private async addAuthor(login: string, rawEmail: string, displayName: string): Promise<number> {
    const email = (rawEmail || `${slugify(login) || 'author'}@wordpress-import.invalid`).toLowerCase()
    const tx = await this.tx()
    const existing = await tx.user.findUnique({ where: { email }, select: { id: true } })
    const id =
      existing?.id ?? (await tx.user.create({ data: { email, name: displayName || login, role: 'author', passwordHash: null }, select: { id: true } })).id
    if (!existing) this.summary.newUsers.push(email)
    this.userByLogin.set(login, id)
    return id
  }

  private async authorOf(item: WxrItem): Promise<number> {
    const known = this.userByLogin.get(item.creator)
    if (known !== undefined) return known
    if (item.creator) return this.addAuthor(item.creator, '', item.creator)
    this.fallbackAuthor ??= await firstAdministratorId(await this.tx())
    return this.fallbackAuthor ?? this.addAuthor('wordpress', '', 'WordPress')
  }

  /** The category list comes first in an export; parents before children, but this does not rely on it. */
  private async createCategories(): Promise<void> {
    const bySlug = new Map(this.pendingCategories.map((c) => [c.slug, c]))
    const create = async (category: WxrCategory, seen: Set<string>): Promise<number> => {
      const known = this.categoryBySlug.get(category.slug)
      if (known !== undefined) return known
      seen.add(category.slug)
      const parent = category.parentSlug && !seen.has(category.parentSlug) ? bySlug.get(category.parentSlug) : undefined
      const parentId = parent ? await create(parent, seen) : null
      const tx = await this.tx()
      const id = (await tx.category.create({ data: { name: category.name || category.slug, slug: category.slug, parentId }, select: { id: true } })).id
      this.categoryBySlug.set(category.slug, id)
      this.summary.categories++
      return id
    }
    for (const category of this.pendingCategories) if (category.slug) await create(category, new Set())
    this.pendingCategories.length = 0
  }

  private async categoryIds(item: WxrItem): Promise<number[]> {
    if (this.pendingCategories.length > 0) await this.createCategories()
    const ids = new Set<number>()
    for (const { domain, slug, name } of item.categories) {
      if (domain !== 'category' || !slug) continue
      let id = this.categoryBySlug.get(slug)
      if (id === undefined) {
        const tx = await this.tx()
        id = (await tx.category.create({ data: { name: name || slug, slug, parentId: null }, select: { id: true } })).id
        this.categoryBySlug.set(slug, id)
        this.summary.categories++
      }
      ids.add(id)
    }
    return [...ids]
  }

  /**
   * A post's approved comments, each after the one it answers (a reply to a comment left out answers none): one insert
   * a comment, for its id. Their content as WordPress shows a comment: autop, then cleaned as a post's content.
   */
  private async writeComments(tx: Tx, postId: number, comments: WxrComment[]): Promise<void> {
    const { siteUrl } = getConfig()
    // Id 0 is none (a comment without <wp:comment_id>): nothing answers it, and it is not one of a repeated id.
    const present = new Set(comments.flatMap((comment) => (comment.id > 0 ? [comment.id] : [])))
    const replies = new Map<number, WxrComment[]>()
    for (const comment of comments) {
      if (!present.has(comment.parentId) || comment.parentId === comment.id) continue
      const list = replies.get(comment.parentId)
      if (list) list.push(comment)
      else replies.set(comment.parentId, [comment])
    }
    const ids = new Map<number, number>()
    const written = new Set<WxrComment>()
    const write = async (comment: WxrComment, parentId: number | null): Promise<void> => {
      if (written.has(comment) || ids.has(comment.id)) return // an id twice in a broken file: once is enough
      written.add(comment)
      const { id } = await tx.comment.create({
        data: {
          postId,
          parentId,
          authorName: comment.author.slice(0, MAX_COMMENT_AUTHOR),
          authorUrl: /^https?:\/\//i.test(comment.authorUrl) ? comment.authorUrl.slice(0, MAX_COMMENT_AUTHOR) : '',
          content: contentFromClassic(comment.content, siteUrl),
          createdAt: wpDate({ postDateGmt: comment.dateGmt, postDate: comment.date }),
        },
        select: { id: true },
      })
      if (comment.id > 0) ids.set(comment.id, id)
      this.summary.comments++
      for (const reply of replies.get(comment.id) ?? []) await write(reply, id)
    }
    // Threads from their first comment; then any comment a cycle of answers kept from them, at the top.
    for (const comment of comments) if (!present.has(comment.parentId) || comment.parentId === comment.id) await write(comment, null)
    for (const comment of comments) await write(comment, null)
  }

  /** A post's content with its addresses on the old site marked, to be resolved once everything is imported. */
  private markOldAddresses(content: string, postId: number): string {
    if (!this.oldSite) return content
    const marked = markOldAddresses(content, this.oldSite)
    if (marked.marked) this.withOldAddresses.add(postId)
    return marked.html
  }

  /** Points the marked addresses at the photos and pages here (or back at the old site), and cleans the content again. */
  private async resolveOldAddresses(tx: Tx): Promise<void> {
    const { siteUrl } = getConfig()
    const here = {
      upload: (key: string) => this.uploadsHere.get(key),
      post: (reference: PostReference) => ('id' in reference ? this.pagesByWpId.get(reference.id) : this.pagesByWpSlug.get(reference.slug)),
    }
    for (const id of this.withOldAddresses) {
      const post = await tx.post.findUnique({ where: { id }, select: { content: true, title: true, address: true } })
      if (!post) continue
      const content = cleanContent(resolveMarkedAddresses(post.content, here, this.oldSite!), siteUrl)
      // An image left on the old site is now a link, whose text the search reads.
      if (content !== post.content) await tx.post.update({ where: { id }, data: { content, ...searchColumns({ ...post, content }) } })
    }
  }

  /** The item's tags (`post_tag` terms), matched by name as the editor matches them; the missing ones created. */
  private async tagIds(item: WxrItem): Promise<number[]> {
    const ids = new Set<number>()
    for (const { domain, slug, name } of item.categories) {
      if (domain !== 'post_tag') continue
      if (ids.size === MAX_TAGS) {
        this.warn(`${describe(item)}: more than ${MAX_TAGS} tags; the first ${MAX_TAGS} kept`)
        break
      }
      const parsed = tagNameSchema.safeParse(name || slug)
      if (!parsed.success) {
        this.warn(`${describe(item)}: tag "${name || slug}" ${parsed.error.issues[0]?.message ?? 'is not valid'}; left out`)
        continue
      }
      let id = this.tagByName.get(parsed.data.toLowerCase())
      if (id === undefined) {
        const tagSlug = this.tagSlugs.has(slug) || !slug ? freeSlug(parsed.data, (s) => this.tagSlugs.has(s)) : slug
        id = (await (await this.tx()).tag.create({ data: { name: parsed.data, slug: tagSlug }, select: { id: true } })).id
        this.tagByName.set(parsed.data.toLowerCase(), id)
        this.tagSlugs.add(tagSlug)
        this.summary.tags++
      }
      ids.add(id)
    }
    return [...ids]
  }

  /**
   * The WordPress id where it is free (neither in the database nor taken by this import: `takenHere`), else
   * (`defer`) a new one at the end, past every id the file keeps (`max`).
   */
  private idFor(item: WxrItem, known: Known | null, takenHere: Set<number>, max: number): number | 'defer' {
    const wanted = wantedId(item)
    if (known && wanted !== null && !takenHere.has(wanted) && !known.takenIds.has(wanted)) return wanted
    return known ? 'defer' : max + 1
  }

  /** An item that got another id than its WordPress one: said in the summary, so links to it can be rewritten. */
  private renumbered(kind: WxrRenumbered['kind'], item: WxrItem, id: number): void {
    if (item.postId !== null && item.postId !== id) this.summary.renumbered.push({ kind, wordpressId: item.postId, id })
  }

  private geodata(item: WxrItem): { latitude: number | null; longitude: number | null; address: string; locationPrecision: LocationPrecision } {
    const lat = item.meta.get('geo_latitude')
    const lng = item.meta.get('geo_longitude')
    const address = item.meta.get('geo_address') ?? ''
    const locationPrecision = this.precision(item)
    if (lat === undefined && lng === undefined) return { latitude: null, longitude: null, address, locationPrecision }
    const latitude = coordinate(lat)
    const longitude = coordinate(lng)
    const valid = Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180
    if (!valid) {
      this.warn(`${describe(item)}: geo_latitude "${lat ?? ''}" / geo_longitude "${lng ?? ''}" is not a valid coordinate; imported without a location`)
      return { latitude: null, longitude: null, address, locationPrecision }
    }
    return { latitude, longitude, address, locationPrecision }
  }

  /**
   * The location's level (docs/privacy.md): WordPress's geo_public as sites store it (0 or 1, "false" or "true"; an
   * empty value is 0, as the Geodata convention reads it), refined by our geo_precision meta.
   */
  private precision(item: WxrItem): LocationPrecision {
    const flag = item.meta.get('geo_public')?.trim().toLowerCase()
    const geoPublic = flag === undefined ? undefined : !['0', 'false', ''].includes(flag)
    const stated = item.meta.get('geo_precision')?.trim().toLowerCase()
    if (stated !== undefined && !isLocationPrecision(stated)) {
      this.warn(`${describe(item)}: geo_precision "${stated}" is not one of ${LOCATION_PRECISIONS.join(', ')}; ignored`)
    }
    return levelOfNewPost({ geoPublic, precision: isLocationPrecision(stated) ? stated : undefined })
  }

  /** Once per item (not again when it is deferred): what of it Places does not keep, and its featured image. */
  private noteWhatIsLeftOut(item: WxrItem): void {
    for (const comment of item.comments) if (!isKeptComment(comment)) this.leaveOut(commentKind(comment))
    for (const term of item.categories) if (term.domain !== 'category' && term.domain !== 'post_tag') this.leaveOut(term.domain || 'term')
    const thumbnail = Number(item.meta.get('_thumbnail_id')?.trim())
    if (item.postId !== null && Number.isInteger(thumbnail) && thumbnail > 0 && !this.featuredBy.has(thumbnail)) {
      this.featuredBy.set(thumbnail, item.postId)
    }
  }

  /** `known`: what the database held of the item's lookup; null for a deferred item, looked up already. */
  private async addPost(item: WxrItem, known: Known | null): Promise<void> {
    if (INTERNAL_TYPES.has(item.postType) || item.status === 'auto-draft' || item.status === 'inherit') {
      if (known) this.leaveOut(INTERNAL_TYPES.has(item.postType) ? item.postType : item.status)
      return
    }
    if (known) this.noteWhatIsLeftOut(item)
    const earlier = known && item.guid ? (known.importedByGuid.get(item.guid) ?? this.postGuids.get(item.guid)) : undefined
    if (earlier !== undefined) {
      if (item.postId !== null) this.postIdByWpId.set(item.postId, earlier)
      this.summary.skipped++
      return
    }
    const type = postTypeSchema.safeParse(item.postType || 'post')
    if (!type.success) {
      this.warn(`${describe(item)}: post type "${item.postType}" ${type.error.issues[0]?.message ?? 'is not valid'}; not imported`)
      return
    }
    const id = this.idFor(item, known, this.takenIds, this.maxId)
    if (id === 'defer') {
      this.deferred.push(item)
      return
    }
    this.renumbered('post', item, id)
    let status = item.status || 'draft'
    if (!STATUS_SET.has(status)) {
      this.warn(`${describe(item)}: unknown status "${status}"; imported as a draft`)
      status = 'draft'
    }
    const trashedFrom = item.meta.get('_wp_trash_meta_status')
    const title = item.title || '(no title)'
    const post = {
      id,
      type: type.data,
      status,
      statusBeforeTrash: status === 'trash' && trashedFrom && STATUS_SET.has(trashedFrom) ? trashedFrom : null,
      trashedAt: status === 'trash' ? trashedAt(item.meta.get('_wp_trash_meta_time')) : null,
      title,
      slug: await this.slugs.take(type.data, item.postName || title),
      content: contentFromWordPress(this.markOldAddresses(item.content, id), getConfig().siteUrl),
      // WordPress's excerpt may hold markup: its text is kept, as long as an excerpt may be.
      excerpt: contentText(item.excerpt).slice(0, MAX_EXCERPT),
      publishedAt: wpDate(item),
      modifiedAt: new Date(),
      authorId: await this.authorOf(item),
      sourceGuid: item.guid || null,
      ...this.geodata(item),
    }
    await this.batch.addPost(post, await this.categoryIds(item), await this.tagIds(item))
    const kept = item.comments.filter(isKeptComment)
    if (kept.length > 0) this.comments.set(id, kept)
    for (const oldSlug of item.oldSlugs.map((value) => slugify(value))) {
      if (oldSlug && oldSlug !== post.slug) this.oldSlugs.set(`${post.type}/${oldSlug}`, { type: post.type, slug: oldSlug, postId: id })
    }
    this.takenIds.add(id)
    this.maxId = Math.max(this.maxId, id)
    if (item.postId !== null) this.postIdByWpId.set(item.postId, id)
    if (item.guid) this.postGuids.set(item.guid, id)
    const page = new URL(postUrl(getConfig().siteUrl, post.type, post.slug)).pathname
    if (item.postId !== null) this.pagesByWpId.set(item.postId, page)
    const wpSlug = decodeSlug(item.postName).toLowerCase()
    if (wpSlug && !this.pagesByWpSlug.has(wpSlug)) this.pagesByWpSlug.set(wpSlug, page)
    this.typesHere.add(post.type)
    if (item.postId !== null && !this.oldPaths.has(`?p=${item.postId}`)) this.oldPaths.set(`?p=${item.postId}`, id)
    const permalink = this.oldSite?.pages.test(item.link) ? oldPathOf(new URL(item.link, this.oldSite.url).pathname) : null
    // Not a path this site answers itself: its home page, or a page of a type of post (`/post/…`).
    const own =
      permalink !== null &&
      (permalink === '' ||
        permalink === oldPathOf(page) ||
        (/^\/[^/]+\/[^/]+$/.test(permalink) && isPostTypeKey(permalink.split('/')[1]!) && this.typesHere.has(permalink.split('/')[1]!)))
    if (permalink && !own && !this.oldPaths.has(permalink)) this.oldPaths.set(permalink, id)
    this.summary.posts++
  }

  private uploadsRealPath: Promise<string> | undefined

  /**
   * Where an attachment's file really is, or null when that is outside the uploads folder. The folder comes from
   * a WordPress site, perhaps someone else's: a `..` in _wp_attached_file, or a symbolic link in the folder (a
   * copied backup keeps them), could otherwise make the import store, and the server serve, any file this user
   * can read. So both paths are resolved with every link followed (realpath) before one is compared with the
   * other. Throws ENOENT for a missing file.
   */
  private async fileInUploads(relative: string): Promise<string | null> {
    const inside = (folder: string, file: string) => file.startsWith(folder + path.sep)
    if (!inside(path.resolve(this.options.uploadsDir!), path.resolve(this.options.uploadsDir!, relative))) return null
    this.uploadsRealPath ??= realpath(this.options.uploadsDir!)
    const folder = await this.uploadsRealPath
    const file = await realpath(path.resolve(folder, relative))
    return inside(folder, file) ? file : null
  }

  /**
   * Stores a file of the uploads folder (and keeps it to discard if the import fails), or says why it cannot:
   * `its file … is missing`, or lies outside the folder, or is not an image Places takes.
   */
  private async storeFromUploads(relative: string): Promise<StoredImage | string> {
    try {
      const file = await this.fileInUploads(relative)
      if (file === null) return `its file "${relative}" lies outside the uploads folder`
      const handle = await open(file)
      // WordPress had it: a photo whose pixels do not decode (cut short) is kept, its GPS read, without sizes.
      const image = await storeImage(relative, handle.createReadStream(), { keepUndecodable: true })
      this.stored.push(image)
      return image
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? `its file ${relative} is missing` : `its file ${relative}: ${(error as Error).message}`
    }
  }

  /** The upload a scaled or rotated attachment was made from (lib/wxr/attachment-metadata.ts), or null. */
  private originalOf(item: WxrItem, relative: string): string | null {
    const serialized = item.meta.get('_wp_attachment_metadata')
    if (!serialized) return null
    try {
      return originalOf(relative, readAttachmentMetadata(serialized))
    } catch (error) {
      if (!(error instanceof AttachmentMetadataError)) throw error
      this.warn(`attachment ${describe(item)}: its _wp_attachment_metadata cannot be read (${error.message}); its original upload, if any, was not looked for`)
      return null
    }
  }

  /** Adds attachments, looked up in the database (by GUID, by id) all at once first. */
  private async addAttachments(items: WxrItem[]): Promise<void> {
    const guids = items.flatMap((item) => item.guid || [])
    const ids = items.flatMap((item) => wantedId(item) ?? [])
    const tx = await this.tx()
    const [imported, taken] = await Promise.all([
      guids.length > 0 ? tx.attachment.findMany({ where: { sourceGuid: { in: guids } }, select: { id: true, sourceGuid: true } }) : [],
      ids.length > 0 ? tx.attachment.findMany({ where: { id: { in: ids } }, select: { id: true } }) : [],
    ])
    const known: Known = {
      importedByGuid: new Map(imported.map((row) => [row.sourceGuid ?? '', row.id])),
      takenIds: new Set(taken.map((row) => row.id)),
    }
    for (const item of items) {
      const deferred = this.deferredAttachments.length
      await this.addAttachment(item, known)
      // A deferred one is counted when it is done.
      if (this.deferredAttachments.length === deferred) this.photoDone()
    }
  }

  private photosDone = 0

  private photoDone(): void {
    this.options.onPhotos?.(++this.photosDone, this.attachments.length)
  }

  /** `known`: what the database held of the item's lookup; null for a deferred item, looked up already. */
  private async addAttachment(item: WxrItem, known: Known | null): Promise<void> {
    const earlier = known && item.guid ? (known.importedByGuid.get(item.guid) ?? this.attachmentGuids.get(item.guid)) : undefined
    if (earlier !== undefined) {
      if (item.postId !== null) this.attachmentIdByWpId.set(item.postId, earlier)
      this.summary.skipped++
      return
    }
    const postId = this.postIdByWpId.get(item.postParent)
    if (postId === undefined) {
      const why =
        item.postParent === 0
          ? 'it is attached to no post, and Places keeps photos with their post'
          : `its post (WordPress id ${item.postParent}) is not in this import`
      this.warn(`attachment ${describe(item)}: ${why}; not imported`)
      return
    }
    const relative = item.meta.get('_wp_attached_file')
    if (!this.options.uploadsDir && relative) this.summary.photosWithoutFiles++
    if (!this.options.uploadsDir || !relative) {
      this.warn(`attachment ${describe(item)}: ${relative ? 'no --uploads folder was given' : 'it names no file (_wp_attached_file)'}; not imported`)
      return
    }
    const id = this.idFor(item, known, this.takenAttachmentIds, this.maxAttachmentId)
    if (id === 'defer') {
      this.deferredAttachments.push(item)
      return
    }
    // The upload itself where WordPress kept a scaled or rotated copy: its GPS is in it, and the copy may have none.
    const original = this.originalOf(item, relative)
    let image = original === null ? null : await this.storeFromUploads(original)
    if (typeof image === 'string') {
      this.warn(
        `attachment ${describe(item)}: ${image}; imported ${relative}, the scaled or rotated copy WordPress made of it, instead (such a copy often has no GPS)`,
      )
    }
    if (image === null || typeof image === 'string') {
      image = await this.storeFromUploads(relative)
      if (typeof image === 'string') {
        this.warn(`attachment ${describe(item)}: ${image}; not imported`)
        return
      }
    }
    if (image.undecodable)
      this.warn(`attachment ${describe(item)}: its image does not decode (${image.undecodable}); imported with its file and GPS, without sizes`)
    await this.batch.addAttachment(
      {
        id,
        postId,
        position: this.positions.get(item) ?? item.menuOrder,
        title: item.title || titleFromFilename(relative),
        caption: item.excerpt,
        altText: item.meta.get('_wp_attachment_image_alt')?.trim() ?? '',
        createdAt: wpDate(item),
        filePath: image.filePath,
        mimeType: image.mimeType,
        size: image.size,
        ...pointOf(image.gps),
        sourceGuid: item.guid || null,
      },
      image.renditions,
    )
    this.renumbered('attachment', item, id)
    this.takenAttachmentIds.add(id)
    this.maxAttachmentId = Math.max(this.maxAttachmentId, id)
    if (item.postId !== null) this.attachmentIdByWpId.set(item.postId, id)
    if (item.guid) this.attachmentGuids.set(item.guid, id)
    const here = `/uploads/${image.filePath.split('/').map(encodeURIComponent).join('/')}`
    for (const upload of [relative, original]) if (upload) this.uploadsHere.set(uploadKey(upload), here)
    this.summary.attachments++
  }
}

/**
 * A geo_latitude or geo_longitude as sites store it: a string, perhaps with spaces around it, perhaps with a decimal
 * comma (`48,8584`, as a French or German editor types it). NaN when it is not a number.
 */
function coordinate(text: string | undefined): number {
  const trimmed = text?.trim() ?? ''
  if (trimmed === '') return NaN
  return Number(/^[+-]?\d+,\d+$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed)
}

/** When WordPress moved a post to the Trash (_wp_trash_meta_time, Unix seconds); undefined when it did not say. */
function trashedAt(seconds: string | undefined): Date | undefined {
  const time = Number(seconds)
  return seconds && Number.isInteger(time) && time > 0 && time < 253_402_300_800 ? new Date(time * 1000) : undefined
}

/** A WordPress slug (post_name) as its permalinks spell it, decoded: WordPress keeps a non-ASCII one percent-encoded. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug)
  } catch {
    return slug
  }
}
