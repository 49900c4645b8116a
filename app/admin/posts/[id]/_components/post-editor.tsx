'use client'

import { useRouter } from 'next/navigation'
import { useEffect, useReducer, useRef, useState, useTransition, type FormEvent } from 'react'
import { Notice } from '@/app/admin/_components/notice'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import type { Tiles } from '@/app/admin/_components/location-picker'
import { STATUS_LABELS } from '@/app/admin/_components/status-labels'
import type { ActionResult } from '@/lib/admin/action-result'
import { postFormSchema, type PostFormValues } from '@/lib/admin/forms'
import { fieldErrorsOf, type FieldErrors } from '@/lib/http/params'
import type { CategoryOption, PostEditorContext } from '@/lib/admin/posts'
import { formatMinute } from '@/lib/dates'
import { isFarFuture } from '@/lib/admin/schedule'
import { slugBase } from '@/lib/slugs'
import { importLocationFromMediaAction, previewPostAction, savePostAction, trashPost, type MediaLocation } from '../../actions'
import { CategoryPicker } from './category-picker'
import { ContentEditor } from './content-editor'
import { TagInput } from './tag-input'
import { LocationFields, type FieldAttributes } from './location-fields'
import { editorReducer, initialEditorState, statusToStore, submitLabel, toValues, typedDate, valuesToSend } from './post-editor-state'
import type { TripOption } from '@/lib/trips/manage'
import { TripOptions } from '@/app/admin/_components/trip-options'
import { TypeField } from './type-field'
import { autosaveSlot, clearAutosave, readAutosave, useUnsavedWork, type Autosave } from './unsaved-work'

type Props = PostEditorContext & {
  userId: number
  categories: CategoryOption[]
  tagSuggestions: string[]
  types: string[]
  trips: TripOption[]
  /** who keeps trips may place a post's photos from its trip's track (Admin → Trips → Place photos) */
  canPlacePhotos: boolean
  tiles: Tiles
}

export function PostEditor({
  userId,
  post: saved,
  allowedStatuses,
  canDelete,
  canAddCategories,
  timezone,
  categories,
  tagSuggestions,
  types,
  trips,
  canPlacePhotos,
  tiles,
}: Props) {
  const [state, dispatch] = useReducer(editorReducer, { post: saved, allowedStatuses }, initialEditorState)
  const { post, statuses, values, errors, notice, dirty, gps, recenter } = state
  const [saving, startSaving] = useTransition()
  const [trashing, startTrashing] = useTransition()
  const [previewing, startPreviewing] = useTransition()
  const router = useRouter()
  const form = useRef<HTMLFormElement>(null)
  const slot = autosaveSlot(userId, saved.id)
  const { allowLeaving } = useUnsavedWork(slot, dirty, values)
  const [offer, setOffer] = useState<Autosave | null>(null)
  // The button's label and the date's warnings compare with now: read once a minute, not on every render.
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), 60_000)
    return () => window.clearInterval(timer)
  }, [])

  // A copy autosaved after the post was last saved, and different from it, is offered back (as WordPress does);
  // an older one is stale. Read after hydration: the server has no localStorage.
  useEffect(() => {
    const kept = readAutosave(slot)
    if (!kept) return
    const newer = kept.savedAt > saved.modifiedAt && JSON.stringify(kept.values) !== JSON.stringify(toValues(saved))
    // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage exists only in the browser, after hydration
    if (newer) setOffer(kept)
    else clearAutosave(slot)
  }, [saved, slot])

  // Ctrl+S (Cmd+S on a Mac) saves, instead of the browser's "Save page as".
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 's' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
      event.preventDefault()
      form.current?.requestSubmit()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const update = (patch: Partial<PostFormValues>) => dispatch({ type: 'edited', patch })
  const check = (field: keyof PostFormValues) => dispatch({ type: 'left', fields: [field] })

  /** Marks the fields, and takes the keyboard to the first one marked. */
  function refuse(found: FieldErrors, text: string) {
    dispatch({ type: 'refused', errors: found, text })
    const fields = document.querySelectorAll<HTMLElement>('.editor [id^="post-"]')
    Array.from(fields)
      .find((element) => found[element.id.slice('post-'.length)])
      ?.focus()
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = postFormSchema.safeParse(values)
    if (!parsed.success) return refuse(fieldErrorsOf(parsed.error), 'Please correct the fields marked. Nothing was saved.')
    if (saving) return
    const creating = values.newCategories.length > 0
    startSaving(async () => {
      // The status the button promised (the server applies the same rule, lib/admin/schedule.ts).
      const result = await savePostAction(post.id, { ...valuesToSend(values, post), status: statusToStore(values, new Date(), timezone) })
      if (!result.ok) return refuse(result.fieldErrors, `${result.message} Nothing was saved.`)
      clearAutosave(slot)
      setOffer(null)
      startSaving(() => {
        dispatch({ type: 'saved', context: result.data })
        // Categories made by this save: the page's list of categories is fetched again, in the same transition, so
        // their chips show their names at once.
        if (creating) router.refresh()
      })
    })
  }

  // Opened at the click, before the answer, so that no popup blocker takes it for a page opening itself.
  function onPreview() {
    const parsed = postFormSchema.safeParse(values)
    if (!parsed.success) return refuse(fieldErrorsOf(parsed.error), 'Please correct the fields marked to preview the post.')
    const tab = window.open('', `places-preview-${post.id}`)
    startPreviewing(async () => {
      const result = await previewPostAction(post.id, valuesToSend(values, post))
      if (!result.ok) {
        tab?.close()
        return refuse(result.fieldErrors, `${result.message} There is no preview.`)
      }
      if (tab) tab.location.href = result.data
      else window.location.assign(result.data)
    })
  }

  async function importFromMedia() {
    dispatch({ type: 'gpsLooking' })
    let result: ActionResult<MediaLocation>
    try {
      result = await importLocationFromMediaAction(post.id)
    } catch {
      dispatch({ type: 'gpsFailed', text: 'The server could not be reached.' })
      return
    }
    if (!result.ok) dispatch({ type: 'gpsFailed', text: result.message })
    else if (result.data.found) dispatch({ type: 'gpsFound', found: result.data.found })
    else dispatch({ type: 'gpsNotFound', imagesChecked: result.data.imagesChecked })
  }

  // As WordPress: no question, since the list offers Undo and the Trash keeps the post.
  function onTrash() {
    startTrashing(async () => {
      const result = await trashPost(post.id)
      if (!result.ok) return dispatch({ type: 'noticed', notice: { tone: 'error', text: result.message } })
      allowLeaving()
      router.push(`/admin?trashed=${post.id}`)
    })
  }

  function restore(kept: Autosave) {
    const values = { ...toValues(post), ...kept.values }
    // A trip deleted (or made a draft) since the copy was kept is offered no more: the post keeps its own.
    if (values.tripId != null && !trips.some((trip) => trip.id === values.tripId)) values.tripId = post.tripId
    dispatch({ type: 'restored', values })
    setOffer(null)
  }

  function dismiss() {
    clearAutosave(slot)
    setOffer(null)
  }

  const field = (name: keyof PostFormValues): FieldAttributes => ({
    id: `post-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(`post-${name}`, errors[name]),
  })
  const publicUrl = post.status === 'publish' ? `/${encodeURIComponent(post.type)}/${encodeURIComponent(post.slug)}` : null
  const slug = slugBase(values.slug.trim() || values.title)
  const slugMoves = post.status === 'publish' && (slug !== post.slug || values.type !== post.type)
  const date = typedDate(values, timezone)
  const stored = statusToStore(values, now, timezone)

  return (
    <form ref={form} className="admin-form editor" onSubmit={onSubmit} noValidate aria-label="Edit post">
      {offer && (
        <div className="confirm autosave-offer" role="group" aria-labelledby="autosave-offer-text">
          <p id="autosave-offer-text">
            There is an autosave of this post, from {formatMinute(offer.savedAt, timezone)}, newer than the version saved. It has changes that were not saved.
          </p>
          <button type="button" onClick={() => restore(offer)}>
            Restore the autosaved version
          </button>{' '}
          <button type="button" className="secondary" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <div className="editor-columns">
        <div className="editor-main">
          <div className="field">
            <label htmlFor="post-title">Title</label>
            <input {...field('title')} value={values.title} onChange={(e) => update({ title: e.target.value })} onBlur={() => check('title')} required />
            <FieldError id="post-title" message={errors.title} />
          </div>
          <div className="field">
            <label htmlFor="post-content" id="post-content-label">
              Content
            </label>
            <ContentEditor
              id="post-content"
              labelId="post-content-label"
              postId={post.id}
              value={values.content}
              onChange={(content) => update({ content })}
              invalid={!!errors.content}
              describedBy={describedBy('post-content', errors.content)}
            />
            <FieldError id="post-content" message={errors.content} />
          </div>
          <div className="field">
            <label htmlFor="post-excerpt">Excerpt</label>
            <textarea
              {...field('excerpt')}
              aria-describedby={describedBy('post-excerpt', errors.excerpt, 'excerpt-hint')}
              rows={3}
              value={values.excerpt}
              onChange={(e) => update({ excerpt: e.target.value })}
              onBlur={() => check('excerpt')}
            />
            <p id="excerpt-hint" className="hint">
              Optional: a sentence or two for search results and link previews. Empty: the first words of the content.
            </p>
            <FieldError id="post-excerpt" message={errors.excerpt} />
          </div>
          <LocationFields
            values={values}
            errors={errors}
            field={field}
            gps={gps}
            recenter={recenter}
            tiles={tiles}
            dispatch={dispatch}
            onImportFromMedia={() => void importFromMedia()}
          />
        </div>

        <div className="editor-side">
          <div className="field">
            <label htmlFor="post-status">Status</label>
            <select {...field('status')} value={values.status} onChange={(e) => update({ status: e.target.value as PostFormValues['status'] })}>
              {/* Trash is "Move to Trash", below; a trashed post keeps its status here until restored. */}
              {statuses
                .filter((status) => status !== 'trash' || post.status === 'trash')
                .map((status) => (
                  <option key={status} value={status}>
                    {STATUS_LABELS[status] ?? status}
                  </option>
                ))}
            </select>
            {!statuses.includes('publish') && <p className="hint">An editor publishes your post once it is pending review.</p>}
            {stored !== values.status && date && (
              <p id="status-hint" className="hint" role="status">
                {stored === 'future'
                  ? `The date is in the future: the post is scheduled, and goes live on ${formatMinute(date, timezone)}.`
                  : 'The date has passed: the post is published now.'}
              </p>
            )}
            <FieldError id="post-status" message={errors.status} />
          </div>
          <div className="field">
            <label htmlFor="post-type">Type</label>
            <TypeField
              id="post-type"
              value={values.type}
              types={types}
              onChange={(type) => update({ type })}
              onBlur={() => check('type')}
              invalid={!!errors.type}
              describedBy={describedBy('post-type', errors.type)}
            />
            <FieldError id="post-type" message={errors.type} />
          </div>
          <div className="field">
            <label htmlFor="post-slug">Slug</label>
            <input
              {...field('slug')}
              aria-describedby={describedBy('post-slug', errors.slug, slugMoves ? 'slug-hint slug-warning' : 'slug-hint')}
              value={values.slug}
              onChange={(e) => update({ slug: e.target.value })}
            />
            {/* The rule the server applies (lib/slugs.ts); a slug another post has gets -2, -3… on saving. */}
            <p id="slug-hint" className="hint">
              The post’s address:{' '}
              <span className="slug-preview">
                /{values.type || 'type'}/{slug}
              </span>
              {values.slug.trim() === '' && '. Empty: made from the title.'}
            </p>
            {slugMoves && (
              <p id="slug-warning" className="field-warning">
                This changes the address of a published post (it is /{post.type}/{post.slug} now). The old address will redirect to the new one.
              </p>
            )}
            <FieldError id="post-slug" message={errors.slug} />
          </div>
          <div className="field">
            <label htmlFor="post-date">Date ({timezone})</label>
            <input
              {...field('date')}
              type="datetime-local"
              step={1}
              value={values.date}
              onChange={(e) => update({ date: e.target.value })}
              onBlur={() => check('date')}
            />
            {date && isFarFuture(date, now) && (
              <p id="date-warning" className="field-warning">
                This date is more than a year ahead: is the year right?
              </p>
            )}
            <FieldError id="post-date" message={errors.date} />
          </div>
          <CategoryPicker
            categories={categories}
            selectedIds={values.categoryIds}
            newPaths={values.newCategories}
            canAdd={canAddCategories}
            onChange={(categoryIds, newCategories) => update({ categoryIds, newCategories })}
            error={errors.categoryIds ?? errors.newCategories}
          />
          <TagInput tags={values.tags} suggestions={tagSuggestions} onChange={(tags) => update({ tags })} error={errors.tags} />
          {trips.length > 0 && (
            <div className="field">
              <label htmlFor="post-tripId">Trip</label>
              <select
                {...field('tripId')}
                value={values.tripId ?? ''}
                onChange={(e) => update({ tripId: e.target.value === '' ? null : Number(e.target.value) })}
              >
                <option value="">None</option>
                <TripOptions trips={trips} />
              </select>
              <FieldError id="post-tripId" message={errors.tripId} />
              {canPlacePhotos && post.tripId && post.tripId === values.tripId && (
                <p className="hint">
                  <a href={`/admin/trips/${post.tripId}/photos?posts=${post.id}`}>Place this post&apos;s photos from the trip&apos;s track</a>
                </p>
              )}
            </div>
          )}
          <p className="muted">
            By {post.authorName}. Last saved {formatMinute(post.modifiedAt, timezone)}.
          </p>
          {publicUrl && (
            <p>
              <a href={publicUrl}>View the post</a>
            </p>
          )}
        </div>
      </div>
      {/* Kept in view at the bottom of the window (sticky), so Save is always at hand and does not move. */}
      <div className="editor-bar">
        <div className="editor-actions">
          <button type="submit" disabled={saving} aria-keyshortcuts="Control+S Meta+S">
            {saving ? 'Saving…' : submitLabel(state, now, timezone)}
          </button>
          <button type="button" className="secondary" onClick={onPreview} disabled={previewing}>
            {previewing ? 'Opening preview…' : 'Preview'}
          </button>
          {canDelete && post.status !== 'trash' && (
            <button type="button" className="link-button danger-link" onClick={onTrash} disabled={trashing}>
              {trashing ? 'Moving to Trash…' : 'Move to Trash'}
            </button>
          )}
          <div className="editor-status" aria-live="polite">
            <Notice notice={notice} />
            {dirty && !notice && <p className="muted">Unsaved changes.</p>}
          </div>
        </div>
      </div>
    </form>
  )
}
