'use client'

import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { AttachmentDto } from '@/lib/media/storage'
import { listMediaAction } from '../../actions'

/** What the Content editor inserts: a figure of this photo, its alt text and, if any, its caption. */
export type ContentPhoto = { src: string; alt: string; caption: string }

type Props = {
  /** the id of this field, which the toolbar's Photo button controls */
  id: string
  postId: number
  onInsert: (photo: ContentPhoto) => void
  onClose: () => void
}

// The photo's path on this site: the post page serves it as its sizes (lib/content/pictures.ts), by this path.
const sitePath = (url: string) => new URL(url, window.location.href).pathname

/**
 * The Content editor's Photo field: one of the post's photos, chosen from their thumbnails, with the alt text and the
 * caption it has in the media manager, which can be changed for this place in the text. Escape closes it.
 */
export function ContentPhotoField({ id, postId, onInsert, onClose }: Props) {
  // Only photos a browser can show: one that could not be decoded has no thumbnail, and no sizes for the post page.
  const [photos, setPhotos] = useState<AttachmentDto[] | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [chosen, setChosen] = useState<AttachmentDto | null>(null)
  const [alt, setAlt] = useState('')
  const [caption, setCaption] = useState('')
  const box = useRef<HTMLDivElement>(null)

  function choose(photo: AttachmentDto) {
    setChosen(photo)
    setAlt(photo.altText)
    setCaption(photo.caption)
  }

  useEffect(() => {
    let live = true
    listMediaAction(postId).then(
      (result) => {
        if (!live) return
        if (!result.ok) return setProblem(result.message)
        const shown = result.data.filter((photo) => photo.thumbnailUrl !== null)
        setPhotos(shown)
        if (shown[0]) choose(shown[0])
      },
      () => live && setProblem('The server could not be reached.'),
    )
    return () => {
      live = false
    }
  }, [postId])

  // Once the photos are in, the keyboard goes to the chosen one, as it went to the address in the Link field.
  useEffect(() => {
    box.current?.querySelector<HTMLElement>('input:checked, button')?.focus()
  }, [photos, problem])

  function insert() {
    if (chosen) onInsert({ src: sitePath(chosen.url), alt: alt.trim(), caption: caption.trim() })
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault()
      onClose()
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      // Enter would otherwise submit the post's form.
      event.preventDefault()
      insert()
    }
  }

  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape and Enter bubble up from the controls inside
    <div ref={box} id={id} className="content-editor-photo" role="group" aria-label="Insert a photo" onKeyDown={onKeyDown}>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : photos === null ? (
        <p role="status">Loading the post’s photos…</p>
      ) : photos.length === 0 ? (
        <p role="status">This post has no photos yet. Upload them under Photos, below, then insert them here.</p>
      ) : (
        <>
          <fieldset>
            <legend>Photo</legend>
            <ul className="content-editor-photos">
              {photos.map((photo) => (
                <li key={photo.id}>
                  <label>
                    <input type="radio" name={`${id}-choice`} checked={chosen?.id === photo.id} onChange={() => choose(photo)} />
                    {/* eslint-disable-next-line @next/next/no-img-element -- the stored sizes are served as they are */}
                    <img src={photo.thumbnailUrl!} alt="" />
                    <span>{photo.title}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-alt`}>Alt text</label>
            <input id={`${id}-alt`} value={alt} maxLength={1000} aria-describedby={`${id}-alt-hint`} onChange={(event) => setAlt(event.target.value)} />
            <p id={`${id}-alt-hint`} className="hint">
              What the photo shows, for those who cannot see it. Empty if it only decorates the text.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-caption`}>Caption</label>
            <input id={`${id}-caption`} value={caption} maxLength={1000} onChange={(event) => setCaption(event.target.value)} />
          </div>
        </>
      )}
      <div className="actions">
        {chosen && (
          <button type="button" onClick={insert}>
            Insert photo
          </button>
        )}
        <button type="button" className="secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </div>
  )
}
