'use client'

import { useEffect, useRef, useState, useTransition, type DragEvent, type KeyboardEvent } from 'react'
import { formatCoordinate } from '@/app/admin/_components/format'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import type { ActionResult } from '@/lib/admin/action-result'
import { attachmentTextSchema, attachmentTitleSchema } from '@/lib/admin/forms'
import type { AttachmentDto, LocationSource } from '@/lib/media/storage'
import { describeMediaAction, removeMediaAction, renameMediaAction, reorderMediaAction } from '../../actions'

type Upload = { key: number; name: string; loaded: number; total: number; state: 'waiting' | 'uploading' | 'done' | 'failed'; error?: string }

/** Where the keyboard focus goes once a change is shown: a control of one photo, the upload control, or the heading. */
type FocusTarget = { id: number; control: 'up' | 'down' | 'title' | 'rename' | 'describe' | 'remove' | 'cancel' } | 'upload' | 'heading'

function focusTargetId(target: FocusTarget): string {
  return typeof target === 'string' ? `media-${target}` : `media-${target.id}-${target.control}`
}

/** Where a photo's point came from, as its list says it (docs/trips.md). */
const SOURCES: Record<LocationSource, string> = { gps: 'GPS', track: 'Placed from a track', hand: 'Placed by hand' }

const ACCEPT = 'image/jpeg,image/png,image/gif,image/webp,image/tiff,image/heic,image/heif,image/avif'

/** POST /places/v1/media?post=ID with the file as the body, reporting progress; resolves with the new attachment. */
function uploadFile(postId: number, file: File, onProgress: (loaded: number, total: number) => void): Promise<AttachmentDto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/places/v1/media?post=${postId}`)
    xhr.setRequestHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size)
    xhr.onload = () => {
      let body: { message?: string } | AttachmentDto | null = null
      try {
        body = JSON.parse(xhr.responseText) as { message?: string } | AttachmentDto
      } catch {}
      if (xhr.status === 201 && body && 'id' in body) resolve(body)
      else reject(new Error((body && 'message' in body && body.message) || `The upload failed (HTTP ${xhr.status}).`))
    }
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached.'))
    xhr.send(file)
  })
}

/**
 * A post's photos: upload (several at once, by picking or dropping, each with its progress), order (the order
 * "Import location from media" walks), rename and remove. Each change is saved at once. The keyboard focus stays
 * with what was acted on (the moved photo's button, the renamed photo, the next photo after a removal), as the
 * buttons it was on are disabled or replaced meanwhile. Who may not upload (`upload_files`: contributors) sees no
 * upload control; the server refuses them anyway.
 */
export function MediaManager({ postId, initial, canUpload }: { postId: number; initial: AttachmentDto[]; canUpload: boolean }) {
  const [items, setItems] = useState(initial)
  const [uploads, setUploads] = useState<Upload[]>([])
  const [message, setMessage] = useState<NoticeValue>()
  const [over, setOver] = useState(false)
  const [pending, startTransition] = useTransition()
  const [confirming, setConfirming] = useState<number | null>(null)
  const dragged = useRef<number | null>(null)
  const nextKey = useRef(0)
  const queue = useRef(Promise.resolve())
  const focusNext = useRef<FocusTarget | null>(null)

  // After the render that shows a change, and only once its buttons are enabled again.
  useEffect(() => {
    const target = focusNext.current
    if (!target || pending) return
    const element = document.getElementById(focusTargetId(target))
    if (element && !(element instanceof HTMLButtonElement && element.disabled)) {
      focusNext.current = null
      element.focus()
    }
  }, [items, pending, confirming])

  const patchUpload = (key: number, patch: Partial<Upload>) => setUploads((all) => all.map((u) => (u.key === key ? { ...u, ...patch } : u)))

  function addFiles(files: FileList | null) {
    if (!files || files.length === 0) return
    setMessage(undefined)
    for (const file of Array.from(files)) {
      const key = nextKey.current++
      setUploads((all) => [...all, { key, name: file.name, loaded: 0, total: file.size, state: 'waiting' }])
      // One at a time, in the order given: that becomes the photos' order.
      queue.current = queue.current.then(async () => {
        patchUpload(key, { state: 'uploading' })
        try {
          const attachment = await uploadFile(postId, file, (loaded, total) => patchUpload(key, { loaded, total }))
          patchUpload(key, { state: 'done', loaded: file.size, total: file.size })
          setItems((all) => [...all, attachment])
        } catch (error) {
          patchUpload(key, { state: 'failed', error: error instanceof Error ? error.message : String(error) })
        }
      })
    }
  }

  function run(action: () => Promise<ActionResult<AttachmentDto[]>>, done: string, focus: { done: FocusTarget; failed: FocusTarget }) {
    startTransition(async () => {
      const result = await action()
      focusNext.current = result.ok ? focus.done : focus.failed
      if (result.ok) {
        setItems(result.data)
        setMessage({ tone: 'ok', text: done })
      } else {
        // A refused order or title names what was wrong; there are no form fields here to mark.
        setMessage({ tone: 'error', text: Object.values(result.fieldErrors).join(' ') || result.message })
      }
    })
  }

  function move(from: number, to: number) {
    if (to < 0 || to >= items.length || from === to) return
    const order = items.map((item) => item.id)
    const [moved] = order.splice(from, 1)
    order.splice(to, 0, moved!)
    const { id, title } = items[from]!
    // The same button on the moved photo, unless it now sits at the end that disables that button.
    const up = to < from
    const control = up ? (to === 0 ? 'down' : 'up') : to === items.length - 1 ? 'up' : 'down'
    run(() => reorderMediaAction(postId, order), `“${title}” is now number ${to + 1}.`, {
      done: { id, control },
      failed: { id, control: up ? 'up' : 'down' },
    })
  }

  function rename(item: AttachmentDto, title: string, control: 'title' | 'rename') {
    const parsed = attachmentTitleSchema.safeParse(title)
    if (!parsed.success) return setMessage({ tone: 'error', text: `The title ${parsed.error.issues[0]?.message ?? 'is not valid'}.` })
    run(
      async () => {
        const result = await renameMediaAction(item.id, parsed.data)
        return result.ok ? { ok: true, data: items.map((i) => (i.id === item.id ? result.data : i)) } : result
      },
      `Renamed to “${parsed.data}”.`,
      { done: { id: item.id, control }, failed: { id: item.id, control } },
    )
  }

  function describe(item: AttachmentDto, form: FormData) {
    const parsed = attachmentTextSchema.safeParse({ caption: form.get('caption') ?? '', altText: form.get('altText') ?? '' })
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      return setMessage({ tone: 'error', text: `The ${issue?.path[0] === 'caption' ? 'caption' : 'alt text'} ${issue?.message ?? 'is not valid'}.` })
    }
    run(
      async () => {
        const result = await describeMediaAction(item.id, parsed.data)
        return result.ok ? { ok: true, data: items.map((i) => (i.id === item.id ? result.data : i)) } : result
      },
      `The caption and alt text of “${item.title}” are saved.`,
      { done: { id: item.id, control: 'describe' }, failed: { id: item.id, control: 'describe' } },
    )
  }

  function remove(item: AttachmentDto) {
    setConfirming(null)
    const index = items.findIndex((i) => i.id === item.id)
    // The next photo, else the one before, else where photos are added (or the heading, for who may not upload).
    const neighbour = items[index + 1] ?? items[index - 1]
    run(
      async () => {
        const result = await removeMediaAction(item.id)
        return result.ok ? { ok: true, data: items.filter((i) => i.id !== item.id) } : result
      },
      `“${item.title}” was removed.`,
      { done: neighbour ? { id: neighbour.id, control: 'remove' } : canUpload ? 'upload' : 'heading', failed: { id: item.id, control: 'remove' } },
    )
  }

  function askToRemove(item: AttachmentDto) {
    focusNext.current = { id: item.id, control: 'cancel' }
    setConfirming(item.id)
  }

  function cancelRemove(item: AttachmentDto) {
    focusNext.current = { id: item.id, control: 'remove' }
    setConfirming(null)
  }

  function onConfirmKeyDown(event: KeyboardEvent<HTMLElement>, item: AttachmentDto) {
    if (event.key !== 'Escape') return
    event.preventDefault()
    event.stopPropagation()
    cancelRemove(item)
  }

  function onDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault()
    setOver(false)
    addFiles(event.dataTransfer.files)
  }

  return (
    <section className="media" aria-labelledby="media-heading">
      <h2 id="media-heading" tabIndex={-1}>
        Photos
      </h2>
      <p className="hint">Changes here are saved at once. “Import location from media” takes the first photo in this order that has GPS in its file.</p>
      <p id="media-alt-hint" className="hint">
        Alt text says what a photo shows, for those who cannot see it; empty, the title is read instead. The caption is shown under the photo.
      </p>
      {canUpload ? (
        <div
          className={`drop-zone${over ? ' over' : ''}`}
          onDragOver={(event) => {
            if (event.dataTransfer.types.includes('Files')) {
              event.preventDefault()
              setOver(true)
            }
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <p>Drop photos here, or</p>
          <label className="button secondary file-button">
            Choose photos…
            <input
              id={focusTargetId('upload')}
              type="file"
              accept={ACCEPT}
              multiple
              className="visually-hidden"
              onChange={(event) => {
                addFiles(event.target.files)
                event.target.value = ''
              }}
            />
          </label>
        </div>
      ) : (
        <p className="muted">Your role cannot upload photos (authors, editors and administrators can, as in WordPress).</p>
      )}

      {uploads.length > 0 && (
        <ul className="uploads" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.key} className={upload.state}>
              <span className="upload-name">{upload.name}</span>
              {/* A refused file's bar would look half done beside its reason: the reason takes the row. */}
              {upload.state !== 'failed' && <progress max={upload.total || 1} value={upload.loaded} aria-label={`Upload of ${upload.name}`} />}
              <span className="upload-state">
                {upload.state === 'waiting' && 'Waiting'}
                {upload.state === 'uploading' && `${Math.floor((100 * upload.loaded) / (upload.total || 1))}%`}
                {upload.state === 'done' && 'Uploaded'}
                {upload.state === 'failed' && (
                  <span role="alert" className="field-error">
                    {upload.error}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}

      <div aria-live="polite">
        <Notice notice={message} />
      </div>

      {items.length === 0 ? (
        <p className="muted">No photos yet.</p>
      ) : (
        <ol className="media-list" aria-label="Photos, in order" aria-busy={pending}>
          {items.map((item, index) => (
            <li
              key={item.id}
              draggable
              onDragStart={() => {
                dragged.current = index
              }}
              onDragOver={(event) => {
                if (dragged.current !== null) event.preventDefault()
              }}
              onDrop={(event) => {
                if (dragged.current === null) return
                event.preventDefault()
                event.stopPropagation()
                move(dragged.current, index)
                dragged.current = null
              }}
              onDragEnd={() => {
                dragged.current = null
              }}
            >
              {/* eslint-disable-next-line @next/next/no-img-element -- the stored sizes are served as they are */}
              <img src={item.thumbnailUrl ?? item.url} alt={item.title} width={96} height={72} loading="lazy" />
              <div className="media-details">
                <form
                  className="inline"
                  onSubmit={(event) => {
                    event.preventDefault()
                    const title = new FormData(event.currentTarget).get('title')
                    // Back to what was used: the field where Enter was pressed, or the button. (Enter in a field
                    // submits through the form's button too, so only the focus tells them apart.)
                    const inField = document.activeElement instanceof HTMLInputElement && event.currentTarget.contains(document.activeElement)
                    rename(item, typeof title === 'string' ? title : '', inField ? 'title' : 'rename')
                  }}
                >
                  <label htmlFor={focusTargetId({ id: item.id, control: 'title' })} className="visually-hidden">
                    Title of photo {index + 1}
                  </label>
                  <input
                    id={focusTargetId({ id: item.id, control: 'title' })}
                    name="title"
                    defaultValue={item.title}
                    key={item.title}
                    maxLength={200}
                    required
                  />
                  <button id={focusTargetId({ id: item.id, control: 'rename' })} type="submit" className="secondary" disabled={pending}>
                    Rename
                  </button>
                </form>
                {/* WordPress's caption and alt text: what the post page shows under the photo, and reads out in its place. */}
                <details className="media-text" open={!!(item.caption || item.altText) || undefined}>
                  <summary>Caption and alt text</summary>
                  <form
                    onSubmit={(event) => {
                      event.preventDefault()
                      describe(item, new FormData(event.currentTarget))
                    }}
                  >
                    <label htmlFor={`media-${item.id}-caption`}>Caption of photo {index + 1}</label>
                    <input id={`media-${item.id}-caption`} name="caption" defaultValue={item.caption} key={`c${item.caption}`} maxLength={1000} />
                    <label htmlFor={`media-${item.id}-alt`}>Alt text of photo {index + 1}</label>
                    <input
                      id={`media-${item.id}-alt`}
                      name="altText"
                      defaultValue={item.altText}
                      key={`a${item.altText}`}
                      maxLength={1000}
                      aria-describedby="media-alt-hint"
                    />
                    <button id={focusTargetId({ id: item.id, control: 'describe' })} type="submit" className="secondary" disabled={pending}>
                      Save caption and alt text
                    </button>
                  </form>
                </details>
                <p className="muted">
                  {item.latitude !== null && item.longitude !== null
                    ? `${SOURCES[item.locationSource ?? 'gps']} ${formatCoordinate(item.latitude)}, ${formatCoordinate(item.longitude)}`
                    : 'No GPS'}{' '}
                  · {(item.size / 1024).toFixed(0)} KB
                </p>
                <div className="inline">
                  <button
                    id={focusTargetId({ id: item.id, control: 'up' })}
                    type="button"
                    className="secondary"
                    onClick={() => move(index, index - 1)}
                    disabled={pending || index === 0}
                    aria-label={`Move “${item.title}” up`}
                  >
                    ↑ Up
                  </button>
                  <button
                    id={focusTargetId({ id: item.id, control: 'down' })}
                    type="button"
                    className="secondary"
                    onClick={() => move(index, index + 1)}
                    disabled={pending || index === items.length - 1}
                    aria-label={`Move “${item.title}” down`}
                  >
                    ↓ Down
                  </button>
                  {confirming === item.id ? (
                    // Escape cancels, as it closes a dialog; focus starts on Cancel, the choice that loses nothing.
                    <span role="group" aria-label={`Remove “${item.title}”?`} className="inline">
                      <button
                        type="button"
                        className="danger"
                        onClick={() => remove(item)}
                        onKeyDown={(event) => onConfirmKeyDown(event, item)}
                        aria-label={`Remove “${item.title}” for good`}
                      >
                        Remove for good
                      </button>
                      <button
                        id={focusTargetId({ id: item.id, control: 'cancel' })}
                        type="button"
                        className="secondary"
                        onClick={() => cancelRemove(item)}
                        onKeyDown={(event) => onConfirmKeyDown(event, item)}
                      >
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button
                      id={focusTargetId({ id: item.id, control: 'remove' })}
                      type="button"
                      className="danger"
                      onClick={() => askToRemove(item)}
                      disabled={pending}
                      aria-label={`Remove “${item.title}”…`}
                    >
                      Remove…
                    </button>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
