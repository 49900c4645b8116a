import 'server-only'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { bulkInsert, getDialect, resetAttachmentIdSequence, resetPostIdSequence, type BulkInsert, type Tx } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import type { Rendition } from '../media/renditions'
import { SlugsInUse } from './slugs-in-use'
import { searchColumns } from './search'
import { PublicLocationRule } from './visibility'

// How the imports (GeoJSON, lib/places/import.ts; WordPress, lib/wxr/import.ts) write: rows gathered and written
// a chunk at a time, inside the import's one transaction. Posts are written with their ids, so that a post's categories
// and attachments can name it before it is written.

// The rows go to the database by its driver, not through Prisma: a prepared statement a row on SQLite, a COPY a chunk
// on PostgreSQL (lib/db). (Through Prisma, a chunk was one statement, and Prisma keeps the parameters of its last 100
// calls even with debugging off: chunks of 1,000 rows held some 80 MB alive, BENCHMARKS.md.) A chunk is written while
// the next is gathered, so the import holds two at most. Its own queries wait for the write (whenWritten()): the
// transaction's one connection answers one statement at a time.
/**
 * Rows to a chunk. PostgreSQL's COPY takes a thousand at a time (a hundred made an import of 100,000 places 40 %
 * slower). SQLite writes a row a statement, so there a chunk only holds rows until they are written, and is small:
 * rows held across the young generation's collections make V8 allocate objects of their kind in the old one from then
 * on (allocation-site pretenuring), and an import of 1,000,000 places peaked 80–90 MB higher (BENCHMARKS.md).
 */
const chunkRows = (): number => (getDialect() === 'sqlite' ? 100 : 1_000)
/** A chunk is written sooner when its text is this long (posts of large content). */
const CHUNK_CHARS = 4_000_000
/**
 * The event loop turns every TURN posts gathered, so that the database's answers are read as they come: a chunk's
 * write takes more than one exchange with PostgreSQL, each of which waits for a turn.
 */
const TURN = 50
/** The slugs in use of a post type are read this many at a time. */
const SLUG_PAGE = 10_000

type PostInput = Prisma.PostCreateManyInput

/**
 * A post to write: every column that cannot be null, given, since a bulk insert takes no defaults; what the public
 * sees of its location and the folded search columns are derived here (lib/places/visibility.ts, lib/places/search.ts).
 */
export type PostRow = Required<
  Pick<PostInput, 'type' | 'status' | 'title' | 'slug' | 'content' | 'publishedAt' | 'modifiedAt' | 'authorId' | 'address' | 'locationPrecision'>
> &
  Pick<PostInput, 'statusBeforeTrash' | 'trashedAt' | 'latitude' | 'longitude' | 'sourceGuid' | 'excerpt' | 'tripId'> & { id: number }

// The columns of posts by the fields of Prisma's model (their @map in prisma/schema.prisma): every field named, which
// the compiler checks. A post is written as its values in this order.
const POST_COLUMNS: Record<keyof PostInput, string> = {
  id: 'id',
  type: 'type',
  status: 'status',
  statusBeforeTrash: 'status_before_trash',
  trashedAt: 'trashed_at',
  title: 'title',
  slug: 'slug',
  content: 'content',
  excerpt: 'excerpt',
  publishedAt: 'published_at',
  modifiedAt: 'modified_at',
  authorId: 'author_id',
  latitude: 'latitude',
  longitude: 'longitude',
  address: 'address',
  locationPrecision: 'location_precision',
  publicLatitude: 'public_latitude',
  publicLongitude: 'public_longitude',
  publicAddress: 'public_address',
  sourceGuid: 'source_guid',
  searchText: 'search_text',
  searchContent: 'search_content',
  tripId: 'trip_id',
}
const POST_FIELDS = Object.keys(POST_COLUMNS) as (keyof PostInput)[]
/** post_categories' columns: a link is [postId, categoryId]; post_tags' the same, [postId, tagId]. */
const LINK_COLUMNS = ['post_id', 'category_id']
const TAG_LINK_COLUMNS = ['post_id', 'tag_id']

export class PostBatch {
  private posts: unknown[][] = []
  private links: number[][] = []
  private tagLinks: number[][] = []
  private attachments: Prisma.AttachmentCreateManyInput[] = []
  /** the sizes of the attachments above, by their file path (unique): their ids are known once they are written */
  private renditions = new Map<string, Rendition[]>()
  /** about how long the posts gathered are as JSON */
  private chars = 0
  private discarding = false
  /** the bulk write (lib/db), from the first chunk to finish() */
  private bulk: BulkInsert | undefined
  private rule: PublicLocationRule | undefined
  /** posts written so far */
  written = 0
  private attachmentsWritten = 0
  /** the write of the last chunk flushed, perhaps still running */
  private writing: Promise<void> = Promise.resolve()
  private readonly chunkRows = chunkRows()

  /** `expected`: about how many posts will be added; `onWritten(n)`: called after each chunk, with the posts written so far. */
  constructor(
    private readonly tx: Tx,
    private readonly expected: number,
    private readonly onWritten?: (posts: number) => void,
  ) {}

  async addPost(post: PostRow, categoryIds: Iterable<number>, tagIds: Iterable<number> = []): Promise<void> {
    this.rule ??= await PublicLocationRule.load(await this.whenWritten())
    const location = {
      latitude: post.latitude ?? null,
      longitude: post.longitude ?? null,
      address: post.address,
      locationPrecision: post.locationPrecision,
    }
    // A post imported into the Trash starts the Trash's clock (lib/admin/trash.ts) now, unless its file said when
    const trashedAt = post.trashedAt ?? (post.status === 'trash' ? new Date() : null)
    const row: Required<PostInput> = {
      statusBeforeTrash: null,
      sourceGuid: null,
      excerpt: '',
      tripId: null,
      ...post,
      latitude: location.latitude,
      longitude: location.longitude,
      ...searchColumns(post),
      ...(await this.rule.columns(location)),
      trashedAt,
    }
    this.posts.push(POST_FIELDS.map((field) => row[field]))
    // The content twice (searchContent folds it), the title and address in three columns each.
    this.chars += 2 * row.content.length + 3 * (row.title.length + row.address.length) + 300
    for (const categoryId of new Set(categoryIds)) this.links.push([post.id, categoryId])
    for (const tagId of new Set(tagIds)) this.tagLinks.push([post.id, tagId])
    if (this.posts.length >= this.chunkRows || this.chars >= CHUNK_CHARS) await this.flush()
    else if (this.posts.length % TURN === 0) await nextTurn()
  }

  /** An attachment of a post added before it. */
  async addAttachment(attachment: Prisma.AttachmentCreateManyInput, renditions: Rendition[] = []): Promise<void> {
    this.attachments.push(attachment)
    if (renditions.length > 0) this.renditions.set(attachment.filePath, renditions)
    if (this.attachments.length >= this.chunkRows) await this.flush()
  }

  /**
   * The import's transaction, for a query of the import's own, once the chunk being written is written. The write
   * goes to the transaction's connection past Prisma, by the driver: a query sent meanwhile would wait in the driver's
   * queue (pg 8 warns that its next major version refuses it). Throws the write's error if it failed: PostgreSQL then
   * refuses every statement until the rollback, and that refusal would hide why.
   */
  async whenWritten(): Promise<Tx> {
    await this.writing
    return this.tx
  }

  /** Waits for the write in flight, failed or not: the import calls it before its transaction ends, whatever happened. */
  async settle(): Promise<void> {
    await this.writing.catch(() => {})
  }

  /**
   * Writes nothing more: the import found a problem, and goes on only to find the others before it fails (its
   * transaction then rolls back what was written).
   */
  discard(): void {
    this.discarding = true
  }

  /**
   * Starts writing the rows gathered, and gathers the next ones while the database writes these: PostgreSQL writes on
   * the other core as the import reads and checks the next chunk (better-sqlite3 writes the posts synchronously, at
   * once). One chunk is written at a time, in order: each flush first waits for the write before it.
   */
  private async flush(): Promise<void> {
    await this.writing
    if (!this.discarding) {
      const writing = this.write(this.posts, this.links, this.tagLinks, this.attachments, this.renditions)
      // Awaited by the next flush, whenWritten() or finish(), which report its failure; until then, not an unhandled
      // rejection.
      writing.catch(() => {})
      this.writing = writing
    }
    this.posts = []
    this.chars = 0
    this.links = []
    this.tagLinks = []
    this.attachments = []
    this.renditions = new Map() // the write holds the last one
    // SQLite answers synchronously, so without this a whole import would run without the event loop ever turning:
    // no signal, no closed IPC channel (bin/run.ts) could stop it half-way.
    await nextTurn()
  }

  /** Writes one chunk: its posts, then their categories, tags and attachments, which refer to them. */
  private async write(
    posts: unknown[][],
    links: number[][],
    tagLinks: number[][],
    attachments: Prisma.AttachmentCreateManyInput[],
    renditions: Map<string, Rendition[]>,
  ): Promise<void> {
    if (posts.length > 0 || links.length > 0 || tagLinks.length > 0)
      this.bulk ??= await bulkInsert(this.tx, ['posts', 'post_categories', 'post_tags'], this.expected)
    if (posts.length > 0) await this.bulk?.insert('posts', Object.values(POST_COLUMNS), posts)
    if (links.length > 0) await this.bulk?.insert('post_categories', LINK_COLUMNS, links)
    if (tagLinks.length > 0) await this.bulk?.insert('post_tags', TAG_LINK_COLUMNS, tagLinks)
    if (attachments.length > 0) {
      const rows = await this.tx.attachment.createManyAndReturn({ data: attachments, select: { id: true, filePath: true } })
      const sizes = rows.flatMap(({ id, filePath }) => (renditions.get(filePath) ?? []).map((r) => ({ ...r, attachmentId: id })))
      if (sizes.length > 0) await this.tx.attachmentRendition.createMany({ data: sizes })
      this.attachmentsWritten += rows.length
    }
    this.written += posts.length
    if (posts.length > 0) this.onWritten?.(this.written)
  }

  /** Writes what is left; new posts and attachments made later get ids past those written here. */
  async finish(): Promise<void> {
    await this.flush()
    await this.writing
    // A discarded import is rolled back by its caller: nothing to put back first (its rollback does).
    if (!this.discarding) await this.bulk?.finish()
    this.bulk = undefined
    if (this.written > 0 && !this.discarding) await resetPostIdSequence(this.tx)
    if (this.attachmentsWritten > 0 && !this.discarding) await resetAttachmentIdSequence(this.tx)
  }
}

/** The slugs in use per post type, read once per type, and the free slug for a new post (lib/slugs.ts's rule). */
export class PostSlugs {
  private readonly byType = new Map<string, SlugsInUse>()

  /** `batch`: the import's, whose writes the reads wait for. */
  constructor(private readonly batch: PostBatch) {}

  /** A free slug for a new post of `type` from `wanted` (a slug or a title); it is then taken. */
  async take(type: string, wanted: string): Promise<string> {
    let inUse = this.byType.get(type)
    if (!inUse) {
      inUse = new SlugsInUse()
      const tx = await this.batch.whenWritten()
      // In pages, in the order of the (type, slug) index, which answers each from where the last ended: a million rows
      // read at once would be a million objects alive together.
      for (let after = ''; ;) {
        const page = await tx.post.findMany({ where: { type, slug: { gt: after } }, select: { slug: true }, orderBy: { slug: 'asc' }, take: SLUG_PAGE })
        inUse.add(page.map((row) => row.slug))
        if (page.length < SLUG_PAGE) break
        after = page.at(-1)!.slug
      }
      this.byType.set(type, inUse)
    }
    return inUse.take(wanted)
  }
}

/** The largest post id, 0 when there is none. */
export async function maxPostId(tx: Tx): Promise<number> {
  return (await tx.post.aggregate({ _max: { id: true } }))._max.id ?? 0
}
