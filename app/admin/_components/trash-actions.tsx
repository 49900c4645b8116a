'use client'

import { useRouter } from 'next/navigation'
import { useRef, useState, useTransition } from 'react'
import { deletePostPermanently, emptyTrashAction, restorePost, trashPost } from '../posts/actions'
import { plural } from './format'

// The posts list's row actions and Trash controls: each row's Edit, View (Preview while not published) and Move to
// Trash, the "Moved to Trash. Undo" notice, each trashed row's Restore and "Delete permanently" (after a
// confirmation), and the Trash view's "Empty Trash". The rights are checked by the actions' lib/ functions.

/** A row's actions, as WordPress's: Edit, View or Preview (its page as those who may edit it see it), Move to Trash. */
export function PostRowActions({ id, title, path, status }: { id: number; title: string; path: string; status: string }) {
  const router = useRouter()
  const [pending, start] = useTransition()
  const [error, setError] = useState<string | null>(null)
  const published = status === 'publish'
  return (
    <span className="row-actions">
      <a href={`/admin/posts/${id}`} aria-label={`Edit “${title}”`}>
        Edit
      </a>
      <a href={published ? path : `${path}?preview=true`} aria-label={`${published ? 'View' : 'Preview'} “${title}”`}>
        {published ? 'View' : 'Preview'}
      </a>
      <button
        type="button"
        className="link-button danger-link"
        disabled={pending}
        aria-label={`Move “${title}” to the Trash`}
        onClick={() =>
          start(async () => {
            const result = await trashPost(id)
            if (!result.ok) return setError(result.message)
            router.push(`/admin?trashed=${id}`)
          })
        }
      >
        Trash
      </button>
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </span>
  )
}

export function TrashedNotice({ id }: { id: number }) {
  const router = useRouter()
  const [pending, start] = useTransition()
  const [state, setState] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  if (state?.tone === 'ok')
    return (
      <p role="status" className="notice">
        {state.text}
      </p>
    )
  return (
    <div role="status" className="notice trash-notice">
      <span>Moved to Trash.</span>{' '}
      <button
        type="button"
        className="link-button"
        disabled={pending}
        onClick={() =>
          start(async () => {
            const result = await restorePost(id)
            if (!result.ok) return setState({ tone: 'error', text: result.message })
            setState({ tone: 'ok', text: 'The post was restored from the Trash.' })
            router.replace(`/admin?restored=${id}`)
          })
        }
      >
        Undo
      </button>
      {state?.tone === 'error' && (
        <span className="form-error" role="alert">
          {state.text}
        </span>
      )}
    </div>
  )
}

export function TrashRowActions({ id, title }: { id: number; title: string }) {
  const router = useRouter()
  const [pending, start] = useTransition()
  const [error, setError] = useState<string | null>(null)
  const dialog = useRef<HTMLDialogElement>(null)
  const run = (action: (id: number) => ReturnType<typeof restorePost>) =>
    start(async () => {
      const result = await action(id)
      if (!result.ok) return setError(result.message)
      dialog.current?.close()
      router.refresh()
    })
  return (
    <span className="row-actions">
      <button type="button" className="link-button" disabled={pending} onClick={() => run(restorePost)} aria-label={`Restore “${title}”`}>
        Restore
      </button>
      <button
        type="button"
        className="link-button danger"
        disabled={pending}
        onClick={() => dialog.current?.showModal()}
        aria-label={`Delete “${title}” permanently`}
      >
        Delete permanently
      </button>
      <dialog ref={dialog} aria-labelledby={`delete-${id}-title`}>
        <p id={`delete-${id}-title`}>Delete “{title}” and its photos permanently? This cannot be undone.</p>
        {/* Cancel comes first: showModal focuses it, so Enter does not delete */}
        <div className="dialog-buttons">
          <button type="button" disabled={pending} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className="danger" disabled={pending} onClick={() => run(deletePostPermanently)}>
            Delete permanently
          </button>
        </div>
      </dialog>
      {error && (
        <span className="form-error" role="alert">
          {error}
        </span>
      )}
    </span>
  )
}

/**
 * "Empty Trash": after a confirmation, deletes for good the `count` posts in the Trash (of `type`, or of every type)
 * that the user may delete, then says what went. Shown in the Trash view whether or not there is anything left, so
 * that the summary stays once the Trash is empty.
 */
export function EmptyTrash({ count, type }: { count: number; type: string | null }) {
  const router = useRouter()
  const [pending, start] = useTransition()
  const [state, setState] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null)
  const dialog = useRef<HTMLDialogElement>(null)
  const empty = () =>
    start(async () => {
      const result = await emptyTrashAction(type)
      dialog.current?.close()
      if (!result.ok) return setState({ tone: 'error', text: result.message })
      const { posts, photos, skipped } = result.data
      setState({
        tone: 'ok',
        text:
          `${plural(posts, 'post', 'posts')}${photos > 0 ? ` and ${plural(photos, 'photo', 'photos')}` : ''} deleted permanently.` +
          (skipped > 0 ? ` ${plural(skipped, 'post was', 'posts were')} left: restored or deleted by someone else meanwhile.` : ''),
      })
      router.refresh()
    })
  return (
    <div className="empty-trash">
      {count > 0 && (
        <button type="button" className="danger" disabled={pending} onClick={() => dialog.current?.showModal()}>
          Empty Trash
        </button>
      )}
      <dialog ref={dialog} aria-labelledby="empty-trash-title">
        <p id="empty-trash-title">
          Delete {count === 1 ? 'the post' : `all ${count} posts`} in the Trash{type ? ` of type “${type}”` : ''} that you may delete, and their photos,
          permanently? This cannot be undone.
        </p>
        {/* Cancel comes first: showModal focuses it, so Enter does not delete */}
        <div className="dialog-buttons">
          <button type="button" disabled={pending} onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="button" className="danger" disabled={pending} onClick={empty}>
            Empty Trash
          </button>
        </div>
      </dialog>
      {state && (
        <p role={state.tone === 'ok' ? 'status' : 'alert'} className={state.tone === 'ok' ? 'notice' : 'form-error'}>
          {state.text}
        </p>
      )}
    </div>
  )
}
