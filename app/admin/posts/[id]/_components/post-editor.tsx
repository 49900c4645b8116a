'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { formatCoordinate, formatUtcMinute } from '@/app/admin/_components/format'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { LocationPickerLoader } from '@/app/admin/_components/location-picker-loader'
import type { Tiles } from '@/app/admin/_components/location-picker'
import { STATUS_LABELS } from '@/app/admin/_components/status-labels'
import { fieldErrorsOf, latitudeFieldSchema, longitudeFieldSchema, postFormSchema, type FieldErrors, type PostFormValues } from '@/lib/admin/forms'
import type { CategoryOption, EditablePost, PostEditorContext } from '@/lib/admin/posts'
import { deletePostAction, savePostAction } from '../../actions'
import { CategoryPicker } from './category-picker'

type Props = PostEditorContext & { categories: CategoryOption[]; types: string[]; tiles: Tiles }

type Found = { latitude: number; longitude: number; attachment_id: number; attachment_title: string }
type GpsState =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'confirm'; found: Found }
  | { state: 'message'; tone: 'ok' | 'warning' | 'error'; text: string }

function toValues(post: EditablePost): PostFormValues {
  return {
    title: post.title,
    content: post.content,
    status: post.status as PostFormValues['status'],
    type: post.type,
    slug: post.slug,
    date: post.date,
    categoryIds: post.categoryIds,
    newCategories: [],
    address: post.address,
    locationPublic: post.locationPublic,
    latitude: post.latitude === null ? '' : String(post.latitude),
    longitude: post.longitude === null ? '' : String(post.longitude),
  }
}

/** The coordinates typed so far, when both are valid; else null (the map then shows no marker). */
function typedLocation(values: PostFormValues): { latitude: number; longitude: number } | null {
  const latitude = latitudeFieldSchema.safeParse(values.latitude)
  const longitude = longitudeFieldSchema.safeParse(values.longitude)
  if (!latitude.success || !longitude.success || latitude.data === null || longitude.data === null) return null
  return { latitude: latitude.data, longitude: longitude.data }
}

const COORDINATES = [
  { name: 'latitude', label: 'Latitude', hint: '−90 to 90, north positive' },
  { name: 'longitude', label: 'Longitude', hint: '−180 to 180, east positive' },
] as const

/**
 * What is wrong with one field as it stands, by itself: that a latitude needs a longitude is said on saving only,
 * not while the user is still on the way to typing the other.
 */
function problemWith(values: PostFormValues, field: keyof PostFormValues): string | undefined {
  if (field === 'latitude' || field === 'longitude') {
    const parsed = (field === 'latitude' ? latitudeFieldSchema : longitudeFieldSchema).safeParse(values[field])
    return parsed.success ? undefined : parsed.error.issues[0]?.message
  }
  const parsed = postFormSchema.safeParse(values)
  return parsed.success ? undefined : fieldErrorsOf(parsed.error)[field]
}

function withProblems(errors: FieldErrors, values: PostFormValues, fields: (keyof PostFormValues)[]): FieldErrors {
  if (fields.length === 0) return errors
  const next = { ...errors }
  for (const field of fields) {
    const problem = problemWith(values, field)
    if (problem) next[field] = problem
    else delete next[field]
  }
  return next
}

export function PostEditor({ post: saved, allowedStatuses, canDelete, canAddCategories, categories, types, tiles }: Props) {
  const [values, setValues] = useState(() => toValues(saved))
  const [post, setPost] = useState(saved)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [notice, setNotice] = useState<NoticeValue>()
  const [dirty, setDirty] = useState(false)
  const [statuses, setStatuses] = useState(allowedStatuses)
  const [gps, setGps] = useState<GpsState>({ state: 'idle' })
  const [recenter, setRecenter] = useState(0)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [saving, startSaving] = useTransition()
  const [deleting, startDeleting] = useTransition()
  const location = typedLocation(values)

  function update(patch: Partial<PostFormValues>) {
    const next = { ...values, ...patch }
    setValues(next)
    setDirty(true)
    setNotice(undefined)
    // A field marked wrong is checked again as it is corrected, so its message goes as soon as it is right.
    setErrors((current) => withProblems(current, next, (Object.keys(patch) as (keyof PostFormValues)[]).filter((field) => current[field])))
  }

  /** Checks fields as the user leaves them; other fields' messages stay as they are. */
  function check(...fields: (keyof PostFormValues)[]) {
    setErrors((current) => withProblems(current, values, fields))
  }

  function setLocation(latitude: number, longitude: number) {
    update({ latitude: String(latitude), longitude: String(longitude) })
    setErrors(({ latitude: _lat, longitude: _lng, ...rest }) => rest)
  }

  /** Marks the fields, and takes the keyboard to the first one marked. */
  function showErrors(found: FieldErrors) {
    setErrors(found)
    const fields = document.querySelectorAll<HTMLElement>('.editor [id^="post-"]')
    Array.from(fields).find((element) => found[element.id.slice('post-'.length)])?.focus()
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const parsed = postFormSchema.safeParse(values)
    if (!parsed.success) {
      showErrors(fieldErrorsOf(parsed.error))
      setNotice({ tone: 'error', text: 'Please correct the fields marked. Nothing was saved.' })
      return
    }
    startSaving(async () => {
      const result = await savePostAction(post.id, values)
      if (!result.ok) {
        showErrors(result.fieldErrors)
        setNotice({ tone: 'error', text: `${result.message} Nothing was saved.` })
        return
      }
      setPost(result.data.post)
      setValues(toValues(result.data.post))
      setStatuses(result.data.allowedStatuses)
      setErrors({})
      setDirty(false)
      setNotice({ tone: 'ok', text: 'Saved.' })
    })
  }

  function applyFound(found: Found) {
    setLocation(found.latitude, found.longitude)
    setRecenter((n) => n + 1)
    setGps({
      state: 'message',
      tone: 'ok',
      text: `Location filled in from the photo “${found.attachment_title}” (${formatCoordinate(found.latitude)}, ${formatCoordinate(found.longitude)}). Save the post to keep it.`,
    })
  }

  async function importFromMedia() {
    setGps({ state: 'loading' })
    let response: Response
    try {
      response = await fetch(`/places/v1/attachment-exif-gps/${post.id}`, { cache: 'no-store', headers: { Accept: 'application/json' } })
    } catch {
      setGps({ state: 'message', tone: 'error', text: 'The server could not be reached. The location was not changed.' })
      return
    }
    const body = (await response.json().catch(() => null)) as (Found & { code?: string; message?: string; data?: { images_checked?: number } }) | null
    if (response.ok && body) {
      const same = location && location.latitude === body.latitude && location.longitude === body.longitude
      if (location && !same) setGps({ state: 'confirm', found: body })
      else applyFound(body)
    } else if (body?.code === 'rest_no_exif_gps') {
      const checked = body.data?.images_checked ?? 0
      setGps({
        state: 'message',
        tone: 'warning',
        text: checked === 0
          ? 'This post has no photos to look at: upload some below first. The location was not changed.'
          : `No photo of this post has GPS data: ${checked} ${checked === 1 ? 'photo was' : 'photos were'} looked at. The location was not changed.`,
      })
    } else {
      setGps({ state: 'message', tone: 'error', text: `${body?.message ?? 'The location could not be read from the photos.'} The location was not changed.` })
    }
  }

  function onDelete() {
    startDeleting(async () => {
      const result = await deletePostAction(post.id)
      // On success the action has sent the browser to the list.
      if (result && !result.ok) setNotice({ tone: 'error', text: result.message })
      setConfirmDelete(false)
    })
  }

  const field = (name: keyof PostFormValues) => ({
    id: `post-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(`post-${name}`, errors[name]),
  })
  const publicUrl = post.status === 'publish' ? `/${encodeURIComponent(post.type)}/${encodeURIComponent(post.slug)}` : null

  return (
    <form className="admin-form editor" onSubmit={onSubmit} noValidate aria-label="Edit post">
      <div className="editor-columns">
        <div className="editor-main">
          <div className="field">
            <label htmlFor="post-title">Title</label>
            <input {...field('title')} value={values.title} onChange={(e) => update({ title: e.target.value })} onBlur={() => check('title')} required />
            <FieldError id="post-title" message={errors.title} />
          </div>
          <div className="field">
            <label htmlFor="post-content">Content</label>
            <textarea {...field('content')} rows={8} value={values.content} onChange={(e) => update({ content: e.target.value })} />
            <FieldError id="post-content" message={errors.content} />
          </div>

          <fieldset className="location">
            <legend>Location</legend>
            <div className="field">
              <label htmlFor="post-address">Address</label>
              <input {...field('address')} value={values.address} onChange={(e) => update({ address: e.target.value })} autoComplete="off" />
              <FieldError id="post-address" message={errors.address} />
            </div>
            <div className="coordinates">
              {COORDINATES.map(({ name, label, hint }) => (
                <div className="field" key={name}>
                  <label htmlFor={`post-${name}`}>{label}</label>
                  <input
                    {...field(name)}
                    aria-describedby={describedBy(`post-${name}`, errors[name], `${name}-hint`)}
                    inputMode="decimal"
                    value={values[name]}
                    onChange={(e) => update({ [name]: e.target.value })}
                    onBlur={() => { check(name); setRecenter((n) => n + 1) }}
                  />
                  <p id={`${name}-hint`} className="hint">{hint}</p>
                  <FieldError id={`post-${name}`} message={errors[name]} />
                </div>
              ))}
            </div>
            <p className="hint" id="map-hint">Click the map to put the location there, or drag the marker.</p>
            <LocationPickerLoader latitude={location?.latitude ?? null} longitude={location?.longitude ?? null} onPick={setLocation} tiles={tiles} recenter={recenter} />
            <div className="inline">
              <button type="button" className="secondary" onClick={importFromMedia} disabled={gps.state === 'loading'}>
                {gps.state === 'loading' ? 'Looking at the photos…' : 'Import location from media'}
              </button>
              <button type="button" className="secondary" onClick={() => update({ latitude: '', longitude: '' })} disabled={!values.latitude && !values.longitude}>
                Clear location
              </button>
            </div>
            <div aria-live="polite" className="gps-status">
              {gps.state === 'confirm' && (
                <div className="confirm" role="group" aria-label="Replace the location?">
                  <p>
                    This post already has a location ({formatCoordinate(location?.latitude ?? 0)}, {formatCoordinate(location?.longitude ?? 0)}). Replace it with the one
                    from the photo “{gps.found.attachment_title}” ({formatCoordinate(gps.found.latitude)}, {formatCoordinate(gps.found.longitude)})?
                  </p>
                  <button type="button" onClick={() => applyFound(gps.found)}>Replace location</button>{' '}
                  <button type="button" className="secondary" onClick={() => setGps({ state: 'message', tone: 'ok', text: 'The location was kept as it was.' })}>Keep current location</button>
                </div>
              )}
              {gps.state === 'message' && <p className={`gps-message ${gps.tone}`} role={gps.tone === 'error' ? 'alert' : 'status'}>{gps.text}</p>}
            </div>
            <label className="checkbox">
              <input type="checkbox" checked={values.locationPublic} onChange={(e) => update({ locationPublic: e.target.checked })} aria-describedby="public-hint" />
              Show the location publicly
            </label>
            <p id="public-hint" className="hint">Off: the post is not on the public map or in the GeoJSON API (WordPress’s geo_public).</p>
          </fieldset>
        </div>

        <div className="editor-side">
          <div className="field">
            <label htmlFor="post-status">Status</label>
            <select {...field('status')} value={values.status} onChange={(e) => update({ status: e.target.value as PostFormValues['status'] })}>
              {statuses.map((status) => <option key={status} value={status}>{STATUS_LABELS[status] ?? status}</option>)}
            </select>
            {!statuses.includes('publish') && <p className="hint">An editor publishes your post once it is pending review.</p>}
            <FieldError id="post-status" message={errors.status} />
          </div>
          <div className="field">
            <label htmlFor="post-type">Type</label>
            <input {...field('type')} list="post-type-options" value={values.type} onChange={(e) => update({ type: e.target.value })} onBlur={() => check('type')} />
            <datalist id="post-type-options">{types.map((type) => <option key={type} value={type} />)}</datalist>
            <FieldError id="post-type" message={errors.type} />
          </div>
          <div className="field">
            <label htmlFor="post-slug">Slug</label>
            <input {...field('slug')} aria-describedby={describedBy('post-slug', errors.slug, 'slug-hint')} value={values.slug} onChange={(e) => update({ slug: e.target.value })} />
            <p id="slug-hint" className="hint">The post’s address: /{values.type || 'type'}/{values.slug || '…'}. Empty: made from the title.</p>
            <FieldError id="post-slug" message={errors.slug} />
          </div>
          <div className="field">
            <label htmlFor="post-date">Date (UTC)</label>
            <input {...field('date')} type="datetime-local" step={1} value={values.date} onChange={(e) => update({ date: e.target.value })} onBlur={() => check('date')} />
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
          <p className="muted">By {post.authorName}. Last saved {formatUtcMinute(post.modifiedAt)} UTC.</p>
          {publicUrl && <p><a href={publicUrl}>View the post</a></p>}
        </div>
      </div>
      {/* Kept in view at the bottom of the window (sticky), so Save is always at hand and does not move. */}
      <div className="editor-bar">
        <div className="editor-actions">
          <button type="submit" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
          {canDelete && !confirmDelete && <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>Delete…</button>}
          <div className="editor-status" aria-live="polite">
            <Notice notice={notice} />
            {dirty && !notice && <p className="muted">Unsaved changes.</p>}
          </div>
        </div>
        {confirmDelete && (
          <div className="confirm" role="group" aria-label="Delete the post?">
            <p>Delete “{post.title}” and its photos for good? This cannot be undone.</p>
            <button type="button" className="danger" onClick={onDelete} disabled={deleting}>{deleting ? 'Deleting…' : 'Delete for good'}</button>{' '}
            <button type="button" className="secondary" onClick={() => setConfirmDelete(false)}>Cancel</button>
          </div>
        )}
      </div>
    </form>
  )
}
