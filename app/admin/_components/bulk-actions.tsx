'use client'

import { useRouter } from 'next/navigation'
import { createContext, useContext, useEffect, useRef, useState, useTransition, type ReactNode } from 'react'
import type { BulkReport } from '@/lib/admin/bulk'
import type { CategoryOption } from '@/lib/admin/posts'
import type { LocateReport } from '@/lib/places/locate'
import type { TripOption } from '@/lib/trips/manage'
import { bulkEditAction, importLocationsFromMediaAction } from '../posts/bulk-actions'
import { CategoryOptions } from './category-options'
import { TripOptions } from './trip-options'
import { plural } from './format'

// The posts list's selection (a checkbox a row, and one for the whole page) and its bulk actions. Native checkboxes
// and a form: keyboard use and names come with them. The server decides what may be changed (lib/admin/bulk.ts,
// lib/places/locate.ts); this shows what it answered.

type Selection = {
  ids: readonly number[]
  selected: ReadonlySet<number>
  toggle: (id: number, on: boolean) => void
  setAll: (on: boolean) => void
  clear: () => void
}

const SelectionContext = createContext<Selection | null>(null)

function useSelection(): Selection {
  const selection = useContext(SelectionContext)
  if (!selection) throw new Error('used outside <BulkSelection>')
  return selection
}

/** Holds which of the page's posts (`ids`) are selected, for the checkboxes and the bulk actions inside it. */
export function BulkSelection({ ids, children }: { ids: number[]; children: ReactNode }) {
  const [chosen, setSelected] = useState<ReadonlySet<number>>(new Set())
  // Only posts shown count: after another page, filter or order, a post no longer in view must not be acted on unseen.
  const selected = new Set(ids.filter((id) => chosen.has(id)))
  const selection: Selection = {
    ids,
    selected,
    toggle: (id, on) =>
      setSelected((current) => {
        const next = new Set(current)
        if (on) next.add(id)
        else next.delete(id)
        return next
      }),
    setAll: (on) => setSelected(new Set(on ? ids : [])),
    clear: () => setSelected(new Set()),
  }
  return <SelectionContext.Provider value={selection}>{children}</SelectionContext.Provider>
}

/** The header's checkbox: selects every post on this page, or none; mixed when some are. */
export function SelectAllPosts() {
  const { ids, selected, setAll } = useSelection()
  const box = useRef<HTMLInputElement>(null)
  const all = ids.length > 0 && ids.every((id) => selected.has(id))
  const some = !all && ids.some((id) => selected.has(id))
  useEffect(() => {
    if (box.current) box.current.indeterminate = some
  }, [some])
  return <input ref={box} type="checkbox" aria-label="Select all posts on this page" checked={all} onChange={(event) => setAll(event.target.checked)} />
}

export function SelectPost({ id, title }: { id: number; title: string }) {
  const { selected, toggle } = useSelection()
  return <input type="checkbox" aria-label={`Select “${title}”`} checked={selected.has(id)} onChange={(event) => toggle(id, event.target.checked)} />
}

type Report = { kind: 'locate'; data: LocateReport } | { kind: 'edit'; label: string; data: BulkReport }

const OUTCOME_WORDS: Record<string, string> = { set: 'Set', done: 'Done', unchanged: 'Unchanged', skipped: 'Skipped' }

/**
 * The bulk action bar above the list, and the summary of what the last run changed. In the Trash, only Restore;
 * elsewhere Move to Trash, Publish (for who may publish), Set to draft, Add to category, Add tag, Import locations
 * from media, and (for who keeps trips, `trips`) Place photos from a trip's track: its review, of the posts selected.
 */
export function BulkActions({
  inTrash,
  canPublish,
  categories,
  trips,
}: {
  inTrash: boolean
  canPublish: boolean
  categories: CategoryOption[]
  trips: TripOption[]
}) {
  const router = useRouter()
  const { selected, clear } = useSelection()
  const [action, setAction] = useState('')
  const [missingOnly, setMissingOnly] = useState(true)
  const [categoryId, setCategoryId] = useState('')
  const [tagName, setTagName] = useState('')
  const [tripId, setTripId] = useState('')
  const [pending, start] = useTransition()
  const [report, setReport] = useState<Report | null>(null)
  const [error, setError] = useState<string | null>(null)
  const actions: [string, string][] = inTrash
    ? [['restore', 'Restore']]
    : [
        ['trash', 'Move to Trash'],
        ...(canPublish ? [['publish', 'Publish'] as [string, string]] : []),
        ['draft', 'Set to draft'],
        ['category', 'Add to category'],
        ['tag', 'Add tag'],
        ['locate', 'Import locations from media'],
        ...(trips.length > 0 ? [['photos', 'Place photos from a trip’s track'] as [string, string]] : []),
      ]
  const apply = () =>
    start(async () => {
      setError(null)
      const label = actions.find(([value]) => value === action)?.[1]
      if (!label) return setError('Choose a bulk action first.')
      if (selected.size === 0) return setError('Select the posts to act on first.')
      if (action === 'category' && !categoryId) return setError('Choose the category to add the posts to.')
      if (action === 'tag' && !tagName.trim()) return setError('Type the tag to add.')
      const ids = [...selected]
      if (action === 'photos') {
        if (!tripId) return setError('Choose the trip whose track places the photos.')
        // Nothing is written here: the review shows each placement on a map first.
        return router.push(`/admin/trips/${tripId}/photos?posts=${ids.join(',')}`)
      }
      const result =
        action === 'locate'
          ? await importLocationsFromMediaAction(ids, missingOnly)
          : await bulkEditAction(ids, action, action === 'category' ? { categoryId: Number(categoryId) } : action === 'tag' ? { tagName } : {})
      if (!result.ok) return setError(Object.values(result.fieldErrors)[0] ?? result.message)
      setReport(action === 'locate' ? { kind: 'locate', data: result.data as LocateReport } : { kind: 'edit', label, data: result.data as BulkReport })
      clear()
      router.refresh()
    })
  return (
    <div className="bulk-actions">
      <form
        className="bulk-bar"
        aria-label="Bulk actions"
        onSubmit={(event) => {
          event.preventDefault()
          apply()
        }}
      >
        <label>
          Bulk action
          <select value={action} onChange={(event) => setAction(event.target.value)}>
            <option value="">Choose…</option>
            {actions.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        {action === 'locate' && (
          <label className="checkbox">
            <input type="checkbox" checked={missingOnly} onChange={(event) => setMissingOnly(event.target.checked)} /> Only posts without a location
          </label>
        )}
        {action === 'category' && (
          <label>
            Category
            <select value={categoryId} onChange={(event) => setCategoryId(event.target.value)}>
              <option value="">Choose…</option>
              <CategoryOptions categories={categories} />
            </select>
          </label>
        )}
        {action === 'photos' && (
          <label>
            Trip
            <select value={tripId} onChange={(event) => setTripId(event.target.value)}>
              <option value="">Choose…</option>
              <TripOptions trips={trips} />
            </select>
          </label>
        )}
        {action === 'tag' && (
          <label>
            Tag
            <input value={tagName} onChange={(event) => setTagName(event.target.value)} autoComplete="off" />
          </label>
        )}
        <button type="submit" disabled={pending}>
          {pending ? 'Applying…' : 'Apply'}
        </button>
        <span className="muted" aria-live="polite">
          {plural(selected.size, 'post')} selected
        </span>
      </form>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div role="status" aria-label="What the bulk action changed">
        {report && (
          <div className="bulk-summary">
            <p className="notice">{report.kind === 'locate' ? locateSummary(report.data) : editSummary(report.label, report.data)}</p>
            <ul>
              {report.data.posts.map((post) => (
                <li key={post.id} className={`bulk-${post.outcome}`}>
                  <strong>{OUTCOME_WORDS[post.outcome]}</strong> {post.title === null ? `post ${post.id}` : `“${post.title}”`}: {post.note}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  )
}

function locateSummary({ summary }: LocateReport): string {
  return (
    `Import locations from media: set ${plural(summary.set, 'post')}` +
    (summary.addressesFilled > 0 ? ` (${plural(summary.addressesFilled, 'address', 'addresses')} filled)` : '') +
    (summary.unchanged > 0 ? `, ${summary.unchanged} unchanged` : '') +
    `, skipped ${summary.skipped}.`
  )
}

function editSummary(label: string, report: BulkReport): string {
  return `${label}: ${plural(report.done, 'post')} done${report.unchanged > 0 ? `, ${report.unchanged} unchanged` : ''}, skipped ${report.skipped}.`
}
