'use client'

import { useReducer, useTransition, type FormEvent } from 'react'
import { formatUtcMinute } from '@/app/admin/_components/format'
import { Notice } from '@/app/admin/_components/notice'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import type { Tiles } from '@/app/admin/_components/location-picker'
import { STATUS_LABELS } from '@/app/admin/_components/status-labels'
import type { ActionResult } from '@/lib/admin/action-result'
import { fieldErrorsOf, postFormSchema, type FieldErrors, type PostFormValues } from '@/lib/admin/forms'
import type { CategoryOption, PostEditorContext } from '@/lib/admin/posts'
import { deletePostAction, importLocationFromMediaAction, savePostAction, type MediaLocation } from '../../actions'
import { CategoryPicker } from './category-picker'
import { LocationFields, type FieldAttributes } from './location-fields'
import { editorReducer, initialEditorState } from './post-editor-state'

type Props = PostEditorContext & { categories: CategoryOption[]; types: string[]; tiles: Tiles }

export function PostEditor({ post: saved, allowedStatuses, canDelete, canAddCategories, categories, types, tiles }: Props) {
  const [state, dispatch] = useReducer(editorReducer, { post: saved, allowedStatuses }, initialEditorState)
  const { post, statuses, values, errors, notice, dirty, gps, recenter, confirmDelete } = state
  const [saving, startSaving] = useTransition()
  const [deleting, startDeleting] = useTransition()

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
    startSaving(async () => {
      const result = await savePostAction(post.id, values)
      if (result.ok) dispatch({ type: 'saved', context: result.data })
      else refuse(result.fieldErrors, `${result.message} Nothing was saved.`)
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

  function onDelete() {
    startDeleting(async () => {
      const result = await deletePostAction(post.id)
      // On success the action has sent the browser to the list.
      if (result && !result.ok) dispatch({ type: 'noticed', notice: { tone: 'error', text: result.message } })
      dispatch({ type: 'deleteAsked', open: false })
    })
  }

  const field = (name: keyof PostFormValues): FieldAttributes => ({
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
              {statuses.map((status) => (
                <option key={status} value={status}>
                  {STATUS_LABELS[status] ?? status}
                </option>
              ))}
            </select>
            {!statuses.includes('publish') && <p className="hint">An editor publishes your post once it is pending review.</p>}
            <FieldError id="post-status" message={errors.status} />
          </div>
          <div className="field">
            <label htmlFor="post-type">Type</label>
            <input
              {...field('type')}
              list="post-type-options"
              value={values.type}
              onChange={(e) => update({ type: e.target.value })}
              onBlur={() => check('type')}
            />
            <datalist id="post-type-options">
              {types.map((type) => (
                <option key={type} value={type} />
              ))}
            </datalist>
            <FieldError id="post-type" message={errors.type} />
          </div>
          <div className="field">
            <label htmlFor="post-slug">Slug</label>
            <input
              {...field('slug')}
              aria-describedby={describedBy('post-slug', errors.slug, 'slug-hint')}
              value={values.slug}
              onChange={(e) => update({ slug: e.target.value })}
            />
            <p id="slug-hint" className="hint">
              The post’s address: /{values.type || 'type'}/{values.slug || '…'}. Empty: made from the title.
            </p>
            <FieldError id="post-slug" message={errors.slug} />
          </div>
          <div className="field">
            <label htmlFor="post-date">Date (UTC)</label>
            <input
              {...field('date')}
              type="datetime-local"
              step={1}
              value={values.date}
              onChange={(e) => update({ date: e.target.value })}
              onBlur={() => check('date')}
            />
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
          <p className="muted">
            By {post.authorName}. Last saved {formatUtcMinute(post.modifiedAt)} UTC.
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
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          {canDelete && !confirmDelete && (
            <button type="button" className="danger" onClick={() => dispatch({ type: 'deleteAsked', open: true })}>
              Delete…
            </button>
          )}
          <div className="editor-status" aria-live="polite">
            <Notice notice={notice} />
            {dirty && !notice && <p className="muted">Unsaved changes.</p>}
          </div>
        </div>
        {confirmDelete && (
          <div className="confirm" role="group" aria-label="Delete the post?">
            <p>Delete “{post.title}” and its photos for good? This cannot be undone.</p>
            <button type="button" className="danger" onClick={onDelete} disabled={deleting}>
              {deleting ? 'Deleting…' : 'Delete for good'}
            </button>{' '}
            <button type="button" className="secondary" onClick={() => dispatch({ type: 'deleteAsked', open: false })}>
              Cancel
            </button>
          </div>
        )}
      </div>
    </form>
  )
}
