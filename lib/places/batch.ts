import 'server-only'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { resetAttachmentIdSequence, resetPostIdSequence, type Tx } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import type { Rendition } from '../media/renditions'
import { searchColumns } from '../admin/search'
import { freeSlug } from '../slugs'
import { PublicLocationRule } from './visibility'

// How the imports (GeoJSON, lib/places/import.ts; WordPress, lib/wxr/import.ts) write: rows gathered and written
// CHUNK at a time, inside the import's one transaction. Posts are written with their ids, so that a post's categories
// and attachments can name it before it is written.

const CHUNK = 500

/** A post to write; what the public sees of its location is derived here (lib/places/visibility.ts). */
export type PostRow = Omit<Prisma.PostCreateManyInput, 'publicLatitude' | 'publicLongitude' | 'publicAddress'> & { id: number }

export class PostBatch {
  private posts: Prisma.PostCreateManyInput[] = []
  private links: Prisma.PostCategoryCreateManyInput[] = []
  private attachments: Prisma.AttachmentCreateManyInput[] = []
  /** the sizes of the attachments above, by their file path (unique): their ids are known once they are written */
  private renditions = new Map<string, Rendition[]>()
  private discarding = false
  private rule: PublicLocationRule | undefined
  /** posts written so far */
  written = 0
  private attachmentsWritten = 0

  /** `onWritten(n)`: called after each chunk, with the posts written so far. */
  constructor(
    private readonly tx: Tx,
    private readonly onWritten?: (posts: number) => void,
  ) {}

  async addPost(post: PostRow, categoryIds: Iterable<number>): Promise<void> {
    this.rule ??= await PublicLocationRule.load(this.tx)
    const location = {
      latitude: post.latitude ?? null,
      longitude: post.longitude ?? null,
      address: post.address ?? '',
      locationPrecision: post.locationPrecision ?? 'exact',
    }
    // A post imported into the Trash starts the Trash's clock (lib/admin/trash.ts) now, unless its file said when
    const trashedAt = post.trashedAt ?? (post.status === 'trash' ? new Date() : null)
    this.posts.push({ ...post, ...searchColumns(post), ...(await this.rule.columns(location)), trashedAt })
    for (const categoryId of new Set(categoryIds)) this.links.push({ postId: post.id, categoryId })
    if (this.posts.length >= CHUNK) await this.flush()
  }

  /** An attachment of a post added before it. */
  async addAttachment(attachment: Prisma.AttachmentCreateManyInput, renditions: Rendition[] = []): Promise<void> {
    this.attachments.push(attachment)
    if (renditions.length > 0) this.renditions.set(attachment.filePath, renditions)
    if (this.attachments.length >= CHUNK) await this.flush()
  }

  /**
   * Writes nothing more: the import found a problem, and goes on only to find the others before it fails (its
   * transaction then rolls back what was written).
   */
  discard(): void {
    this.discarding = true
  }

  private async flush(): Promise<void> {
    if (!this.discarding) {
      // Posts first: the links and attachments refer to them.
      if (this.posts.length > 0) await this.tx.post.createMany({ data: this.posts })
      if (this.links.length > 0) await this.tx.postCategory.createMany({ data: this.links })
      if (this.attachments.length > 0) {
        const rows = await this.tx.attachment.createManyAndReturn({ data: this.attachments, select: { id: true, filePath: true } })
        const renditions = rows.flatMap(({ id, filePath }) => (this.renditions.get(filePath) ?? []).map((r) => ({ ...r, attachmentId: id })))
        if (renditions.length > 0) await this.tx.attachmentRendition.createMany({ data: renditions })
        this.attachmentsWritten += rows.length
      }
      this.written += this.posts.length
      if (this.posts.length > 0) this.onWritten?.(this.written)
    }
    this.posts = []
    this.links = []
    this.attachments = []
    this.renditions.clear()
    // SQLite answers synchronously, so without this a whole import would run without the event loop ever turning:
    // no signal, no closed IPC channel (bin/cli.ts) could stop it half-way.
    await nextTurn()
  }

  /** Writes what is left; new posts and attachments made later get ids past those written here. */
  async finish(): Promise<void> {
    await this.flush()
    if (this.written > 0 && !this.discarding) await resetPostIdSequence(this.tx)
    if (this.attachmentsWritten > 0 && !this.discarding) await resetAttachmentIdSequence(this.tx)
  }
}

/** The slugs in use per post type, read once per type, and the free slug for a new post (lib/slugs.ts's rule). */
export class PostSlugs {
  private readonly byType = new Map<string, Set<string>>()

  constructor(private readonly tx: Tx) {}

  /** A free slug for a new post of `type` from `wanted` (a slug or a title); it is then taken. */
  async take(type: string, wanted: string): Promise<string> {
    let taken = this.byType.get(type)
    if (!taken) {
      taken = new Set((await this.tx.post.findMany({ where: { type }, select: { slug: true } })).map((row) => row.slug))
      this.byType.set(type, taken)
    }
    const slug = freeSlug(wanted, (s) => taken.has(s))
    taken.add(slug)
    return slug
  }
}

/** The largest post id, 0 when there is none. */
export async function maxPostId(tx: Tx): Promise<number> {
  return (await tx.post.aggregate({ _max: { id: true } }))._max.id ?? 0
}
