import 'server-only'
import sharp from 'sharp'
import type { Picture } from '../api/contract'
import { getDb } from '../db'
import { ATTACHMENT_ORDER, attachmentUrl, uploadsPath } from './storage'

// The photos a page shows of a post: only a published post's, since the public pages show nothing of the others.

type PictureRow = { postId: number; title: string; filePath: string }

async function toPicture({ title, filePath }: PictureRow): Promise<Picture | null> {
  const meta = await sharp(uploadsPath('public', filePath))
    .metadata()
    .catch(() => null)
  if (!meta?.width || !meta.height) return null
  // EXIF orientations 5–8 turn the image a quarter: the browser shows it with its sides swapped.
  const turned = (meta.orientation ?? 1) >= 5
  const url = attachmentUrl(filePath)
  const width = turned ? meta.height : meta.width
  return { alt: title, width, height: turned ? meta.width : meta.height, src: url, srcset: `${url} ${width}w`, webpSrcset: '' }
}

async function publicPictureRows(postIds: number[]): Promise<PictureRow[]> {
  return getDb().attachment.findMany({
    where: { postId: { in: postIds }, post: { status: 'publish' } },
    orderBy: [...ATTACHMENT_ORDER],
    select: { postId: true, title: true, filePath: true },
  })
}

/** Each published post's first public photo, by post id; posts that are not published or have none are absent. */
export async function firstPictures(postIds: number[]): Promise<Map<number, Picture>> {
  const pictures = new Map<number, Picture>()
  if (postIds.length === 0) return pictures
  for (const row of await publicPictureRows([...new Set(postIds)])) {
    if (pictures.has(row.postId)) continue
    const picture = await toPicture(row)
    if (picture) pictures.set(row.postId, picture)
  }
  return pictures
}

/** All public photos of a published post, in the attachments' order; none for any other post. */
export async function postPictures(postId: number): Promise<Picture[]> {
  const pictures = await Promise.all((await publicPictureRows([postId])).map(toPicture))
  return pictures.filter((picture) => picture !== null)
}
