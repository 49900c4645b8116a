import type { Picture } from '../api/contract'

// A post's content shows its photos as their sizes (lib/media/renditions.ts), as its gallery does: an image of this
// site's uploads that is a public photo gets `srcset`, so a phone loads a phone's width, not the stored file.

// Cleaned content's attributes are double-quoted, in the order the writer gave them.
const CONTENT_IMAGE = /<img([^>]*?) src="\/uploads\/([^"?#]+)"([^>]*)>/g

/** How wide a content image is shown: the post's column (the whole width on a phone), or less if its writer said so. */
function sizesFor(width: number | null): string {
  return width === null ? '(max-width: 48rem) 100vw, 46rem' : `(max-width: 48rem) min(100vw, ${width}px), min(46rem, ${width}px)`
}

function storedPath(url: string): string | null {
  try {
    return url.split('/').map(decodeURIComponent).join('/')
  } catch {
    return null
  }
}

/** The stored paths (relative to the uploads folder) of the images cleaned content shows. */
export function contentImagePaths(html: string): string[] {
  return [...html.matchAll(CONTENT_IMAGE)].flatMap((match) => storedPath(match[2]!) ?? [])
}

/** Cleaned content (lib/content/html.ts) with each image of `pictures` (by stored path) served as its sizes. */
export function withContentPictures(html: string, pictures: ReadonlyMap<string, Picture>): string {
  return html.replace(CONTENT_IMAGE, (whole, before: string, url: string, after: string) => {
    const path = storedPath(url)
    const picture = path === null ? undefined : pictures.get(path)
    if (!picture) return whole
    // A width the writer chose (a WordPress thumbnail, say) under the photo's own is kept, the height to scale.
    const stated = Number(/\swidth="(\d+)"/.exec(`${before}${after}`)?.[1])
    const width = stated > 0 && stated < picture.width ? stated : null
    const height = width === null ? picture.height : Math.round((width * picture.height) / picture.width)
    const kept = (attributes: string) => attributes.replace(/\s(?:width|height)="[^"]*"/g, '')
    return `<img${kept(before)} src="${picture.src}" srcset="${picture.srcset}" sizes="${sizesFor(width)}" width="${width ?? picture.width}" height="${height}"${kept(after)}>`
  })
}
