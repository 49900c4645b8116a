import type { Picture } from '../api/contract'

// A post's content shows its photos as their sizes (lib/media/renditions.ts), as its gallery does: an image of this
// site's uploads that is a public photo gets `srcset`, so a phone loads a phone's width, not the stored file.

const CONTENT_IMAGE = /<img src="\/uploads\/([^"?#]+)"([^>]*)>/g

/** How wide a content image is shown: the post's column, the whole width on a phone. */
const SIZES = '(max-width: 48rem) 100vw, 46rem'

function storedPath(url: string): string | null {
  try {
    return url.split('/').map(decodeURIComponent).join('/')
  } catch {
    return null
  }
}

/** The stored paths (relative to the uploads folder) of the images cleaned content shows. */
export function contentImagePaths(html: string): string[] {
  return [...html.matchAll(CONTENT_IMAGE)].flatMap((match) => storedPath(match[1]!) ?? [])
}

/** Cleaned content (lib/content/html.ts) with each image of `pictures` (by stored path) served as its sizes. */
export function withContentPictures(html: string, pictures: ReadonlyMap<string, Picture>): string {
  return html.replace(CONTENT_IMAGE, (whole, url: string, rest: string) => {
    const path = storedPath(url)
    const picture = path === null ? undefined : pictures.get(path)
    if (!picture) return whole
    const kept = rest.replace(/\s(?:width|height)="[^"]*"/g, '')
    return `<img src="${picture.src}" srcset="${picture.srcset}" sizes="${SIZES}" width="${picture.width}" height="${picture.height}"${kept}>`
  })
}
