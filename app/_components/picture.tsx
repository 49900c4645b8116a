import { preload } from 'react-dom'
import type { Picture as PictureData } from '@/lib/api/contract'

// A photo at the size the layout needs: the browser picks from `srcset` by `sizes`, WebP where it can. Plain markup,
// no hooks, so server and client components both render it.

type Props = {
  picture: PictureData
  /** the width the image takes in the layout, as the `sizes` attribute says it, e.g. `(max-width: 600px) 100vw, 320px` */
  sizes: string
  className?: string
  loading?: 'lazy' | 'eager'
  /** the page's main image (LCP): loaded at once, ahead of the others */
  priority?: boolean
}

export function Picture({ picture, sizes, className, loading = 'lazy', priority = false }: Props) {
  // The main image is announced in the head, so the browser asks for it before it has read the body down to it.
  if (priority) {
    const [imageSrcSet, type] = picture.webpSrcset ? [picture.webpSrcset, 'image/webp'] : [picture.srcset, undefined]
    preload(picture.src, { as: 'image', imageSrcSet, imageSizes: sizes, fetchPriority: 'high', type })
  }
  return (
    <picture className={className}>
      {picture.webpSrcset && <source type="image/webp" srcSet={picture.webpSrcset} sizes={sizes} />}
      <img
        src={picture.src}
        srcSet={picture.srcset}
        sizes={sizes}
        width={picture.width}
        height={picture.height}
        alt={picture.alt}
        loading={priority ? 'eager' : loading}
        fetchPriority={priority ? 'high' : undefined}
        decoding="async"
      />
    </picture>
  )
}
