'use client'

import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { Picture } from '@/lib/api/contract'

type Props = { photos: (Picture & { caption: string })[] }

/**
 * The post's photos, one at a time, over the page: a link of the page marked `data-photo` (its index here) opens it.
 * A modal dialog: Escape or Close shuts it and gives the focus back to the link; the arrow keys and the buttons go
 * from photo to photo. Without JavaScript the link opens the largest size, as before.
 */
export function PhotoViewer({ photos }: Props) {
  const dialog = useRef<HTMLDialogElement>(null)
  const opener = useRef<HTMLElement | null>(null)
  const [index, setIndex] = useState(0)
  // The photo is drawn only while the viewer is open: a closed dialog's image would still be fetched.
  const [open, setOpen] = useState(false)

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element).closest<HTMLElement>('a[data-photo]')
      const at = Number(link?.dataset.photo)
      if (!link || !Number.isInteger(at) || !photos[at]) return
      event.preventDefault()
      opener.current = link
      setIndex(at)
      setOpen(true)
      dialog.current?.showModal()
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [photos])

  if (photos.length === 0) return null
  const photo = open ? photos[index] : undefined
  const count = photos.length
  const go = (step: number) => setIndex((at) => (at + step + count) % count)
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (count < 2) return
    if (event.key === 'ArrowRight') go(1)
    else if (event.key === 'ArrowLeft') go(-1)
    else return
    event.preventDefault()
  }

  return (
    <dialog
      ref={dialog}
      className="photo-viewer"
      aria-label="Photos"
      aria-describedby="photo-viewer-position"
      onKeyDown={onKeyDown}
      onClose={() => {
        setOpen(false)
        opener.current?.focus()
      }}
    >
      {photo && (
        <>
          <figure>
            <picture>
              <source type="image/webp" srcSet={photo.webpSrcset} sizes={`min(100vw, ${photo.width}px)`} />
              {/* Never wider than the photo itself: `sizes` stops at its own width, and CSS keeps that size. */}
              <img src={photo.src} srcSet={photo.srcset} sizes={`min(100vw, ${photo.width}px)`} width={photo.width} height={photo.height} alt={photo.alt} />
            </picture>
            {photo.caption && <figcaption>{photo.caption}</figcaption>}
          </figure>
          <div className="photo-viewer-controls">
            <p id="photo-viewer-position" aria-live="polite">
              Photo {index + 1} of {count}
            </p>
            {count > 1 && (
              <>
                <button type="button" onClick={() => go(-1)} aria-keyshortcuts="ArrowLeft">
                  ← Previous
                </button>
                <button type="button" onClick={() => go(1)} aria-keyshortcuts="ArrowRight">
                  Next →
                </button>
              </>
            )}
            <button type="button" onClick={() => dialog.current?.close()} aria-keyshortcuts="Escape">
              Close
            </button>
          </div>
        </>
      )}
    </dialog>
  )
}
