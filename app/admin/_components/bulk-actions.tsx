'use client'

import { useRouter } from 'next/navigation'
import { createContext, useContext, useEffect, useRef, useState, useTransition, type ReactNode } from 'react'
import type { LocateReport } from '@/lib/places/locate'
import { importLocationsFromMediaAction } from '../posts/bulk-actions'

// The posts list's selection (a checkbox a row, and one for the whole page) and its bulk action, "Import locations
// from media". Native checkboxes and a form: keyboard use and names come with them. The server decides what may be
// changed (lib/places/locate.ts); this shows what it answered.

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

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** The bulk action bar above the list, and the summary of what the last run changed. */
export function BulkActions() {
  const router = useRouter()
  const { selected, clear } = useSelection()
  const [action, setAction] = useState('')
  const [missingOnly, setMissingOnly] = useState(true)
  const [pending, start] = useTransition()
  const [report, setReport] = useState<LocateReport | null>(null)
  const [error, setError] = useState<string | null>(null)
  const apply = () =>
    start(async () => {
      setError(null)
      if (action !== 'locate') return setError('Choose a bulk action first.')
      if (selected.size === 0) return setError('Select the posts to act on first.')
      const result = await importLocationsFromMediaAction([...selected], missingOnly)
      if (!result.ok) return setError(result.message)
      setReport(result.data)
      clear()
      router.refresh()
    })
  const summary = report?.summary
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
            <option value="locate">Import locations from media</option>
          </select>
        </label>
        {action === 'locate' && (
          <label className="checkbox">
            <input type="checkbox" checked={missingOnly} onChange={(event) => setMissingOnly(event.target.checked)} /> Only posts without a location
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
        {summary && report && (
          <div className="bulk-summary">
            <p className="notice">
              Import locations from media: set {plural(summary.set, 'post')}
              {summary.addressesFilled > 0 && ` (${plural(summary.addressesFilled, 'address', 'addresses')} filled)`}
              {summary.unchanged > 0 && `, ${summary.unchanged} unchanged`}, skipped {summary.skipped}.
            </p>
            <ul>
              {report.posts.map((post) => (
                <li key={post.id} className={`bulk-${post.outcome}`}>
                  <strong>{post.outcome === 'set' ? 'Set' : post.outcome === 'unchanged' ? 'Unchanged' : 'Skipped'}</strong>{' '}
                  {post.title === null ? `post ${post.id}` : `“${post.title}”`}: {post.note}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  )
}
