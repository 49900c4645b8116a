import 'server-only'
import type { Picture } from '../api/contract'
import { getDb, IDS_PER_QUERY } from '../db'
import { MEDIUM_WIDTH } from './renditions'
import { ATTACHMENT_ORDER, renditionUrl } from './storage'

// The photos a page shows of a post, as its sizes (lib/media/renditions.ts): only a published post's, since the
// public pages show nothing of the others. An image that could not be decoded has no sizes, and is no picture.

type StoredRendition = { format: string; width: number; height: number; fileName: string }

type PictureRow = { title: string; altText: string; caption: string; renditions: StoredRendition[] }

/** A photo as a post's page shows it: with its caption (WordPress's), which the API's Picture does not carry. */
export type PostPicture = Picture & { caption: string }

function srcset(renditions: StoredRendition[]): string {
  return renditions.map((r) => `${renditionUrl(r.fileName)} ${r.width}w`).join(', ')
}

function toPicture({ title, altText, renditions }: PictureRow): Picture | null {
  const bySize = [...renditions].sort((a, b) => a.width - b.width)
  const jpeg = bySize.filter((r) => r.format === 'jpeg')
  const webp = bySize.filter((r) => r.format === 'webp')
  const largest = jpeg.at(-1)
  if (!largest || webp.length === 0) return null
  const medium = jpeg.findLast((r) => r.width <= MEDIUM_WIDTH) ?? jpeg[0]!
  // The alternative text where the photo has one (WordPress's, imported), else its title.
  return {
    alt: altText || title,
    width: largest.width,
    height: largest.height,
    src: renditionUrl(medium.fileName),
    srcset: srcset(jpeg),
    webpSrcset: srcset(webp),
  }
}

async function publicPictureRows(postIds: number[]): Promise<(PictureRow & { postId: number })[]> {
  return getDb().attachment.findMany({
    where: { postId: { in: postIds }, post: { status: 'publish' }, renditions: { some: {} } },
    orderBy: [...ATTACHMENT_ORDER],
    select: { postId: true, title: true, altText: true, caption: true, renditions: { select: { format: true, width: true, height: true, fileName: true } } },
  })
}

/** Each published post's first public photo, by post id; posts that are not published or have none are absent. */
export async function firstPictures(postIds: number[]): Promise<Map<number, Picture>> {
  const pictures = new Map<number, Picture>()
  const ids = [...new Set(postIds)]
  // In chunks, as findPublicPlacesByIds: a map's answer may name more posts than a query may bind parameters.
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    for (const row of await publicPictureRows(ids.slice(start, start + IDS_PER_QUERY))) {
      if (pictures.has(row.postId)) continue
      const picture = toPicture(row)
      if (picture) pictures.set(row.postId, picture)
    }
  }
  return pictures
}

/** All public photos of a published post, in the attachments' order; none for any other post. */
export async function postPictures(postId: number): Promise<PostPicture[]> {
  return (await publicPictureRows([postId])).flatMap((row) => {
    const picture = toPicture(row)
    return picture ? [{ ...picture, caption: row.caption }] : []
  })
}

/**
 * The public photos stored at these paths (relative to the uploads folder), by path: the images a post's content
 * shows (lib/content/pictures.ts). A photo of a post that is not published is none, as everywhere on public pages.
 */
export async function picturesAt(filePaths: string[]): Promise<Map<string, Picture>> {
  const found = new Map<string, Picture>()
  const paths = [...new Set(filePaths)]
  for (let start = 0; start < paths.length; start += IDS_PER_QUERY) {
    const rows = await getDb().attachment.findMany({
      where: { filePath: { in: paths.slice(start, start + IDS_PER_QUERY) }, post: { status: 'publish' }, renditions: { some: {} } },
      select: {
        filePath: true,
        title: true,
        altText: true,
        caption: true,
        renditions: { select: { format: true, width: true, height: true, fileName: true } },
      },
    })
    for (const row of rows) {
      const picture = toPicture(row)
      if (picture) found.set(row.filePath, picture)
    }
  }
  return found
}
