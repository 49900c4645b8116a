'use client'

import { useRef, useState, useTransition } from 'react'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import { plural } from '@/app/admin/_components/format'
import type { ImportPreview, ImportRequest, ImportResult } from '@/lib/admin/import'
import { discardImportAction, previewImportAction, runImportAction } from '../actions'

type CsvOptions = NonNullable<ImportRequest['csv']>
type Field = keyof NonNullable<CsvOptions['columns']>
type Upload = { name: string; loaded: number; total: number }

const DELIMITER_NAMES: Record<NonNullable<CsvOptions['delimiter']>, string> = { ',': 'Comma', ';': 'Semicolon', '\t': 'Tab', '|': 'Vertical bar' }
const FIELD_LABELS: Record<Field, string> = {
  title: 'Title',
  latitude: 'Latitude',
  longitude: 'Longitude',
  address: 'Address',
  date: 'Date',
  categories: 'Categories',
  tags: 'Tags',
  content: 'Content',
  excerpt: 'Excerpt',
  slug: 'Slug',
  type: 'Post type',
  author: 'Author (email)',
}
const FIELDS = Object.keys(FIELD_LABELS) as Field[]

/** POST /admin/import/file with the file as the body, reporting progress; resolves with the upload's token. */
function uploadFile(file: File, onProgress: (loaded: number, total: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/admin/import/file')
    xhr.setRequestHeader('Content-Type', 'application/octet-stream')
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size)
    xhr.onload = () => {
      let body: { token?: string; message?: string } | null = null
      try {
        body = JSON.parse(xhr.responseText) as { token?: string; message?: string }
      } catch {}
      if (xhr.status === 201 && body?.token) resolve(body.token)
      else reject(new Error(body?.message || `The upload failed (HTTP ${xhr.status}).`))
    }
    xhr.onerror = () => reject(new Error('The upload failed: the server could not be reached.'))
    xhr.send(file)
  })
}

/**
 * Tools → Import: a file is uploaded (with its progress), its summary shown before anything is written, a CSV
 * file's columns, delimiter and decimal mark changed until it reads right, then imported all or nothing
 * (lib/admin/import.ts decides who may, and does it).
 */
export function ImportScreen() {
  const [upload, setUpload] = useState<Upload | null>(null)
  const [request, setRequest] = useState<ImportRequest | null>(null)
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [result, setResult] = useState<ImportResult | null>(null)
  const [notice, setNotice] = useState<NoticeValue>()
  const [pending, startTransition] = useTransition()
  const input = useRef<HTMLInputElement>(null)

  const read = (next: ImportRequest) =>
    startTransition(async () => {
      const answer = await previewImportAction(next)
      if (!answer.ok) return setNotice({ tone: 'error', text: answer.message })
      setRequest(next)
      setPreview(answer.data)
      setNotice(undefined)
    })

  const choose = async (file: File) => {
    setResult(null)
    setPreview(null)
    setNotice(undefined)
    setUpload({ name: file.name, loaded: 0, total: file.size })
    try {
      const token = await uploadFile(file, (loaded, total) => setUpload({ name: file.name, loaded, total }))
      setUpload(null)
      read({ token, name: file.name })
    } catch (error) {
      setUpload(null)
      setNotice({ tone: 'error', text: (error as Error).message })
    }
  }

  const reset = () => {
    if (request && !result) void discardImportAction(request)
    setRequest(null)
    setPreview(null)
    setResult(null)
    setNotice(undefined)
    if (input.current) input.current.value = ''
  }

  const importNow = () =>
    startTransition(async () => {
      if (!request) return
      const answer = await runImportAction(request)
      if (!answer.ok) return setNotice({ tone: 'error', text: answer.message })
      setResult(answer.data)
      setPreview(null)
    })

  return (
    <div className="import-screen">
      {!preview && !result && (
        <div className="field">
          <label htmlFor="import-file">File to import</label>
          <input
            ref={input}
            id="import-file"
            type="file"
            accept=".geojson,.json,.kml,.kmz,.gpx,.csv,.tsv,.txt,.xml"
            aria-describedby="import-file-hint"
            disabled={upload !== null || pending}
            onChange={(event) => {
              const file = event.target.files?.[0]
              if (file) void choose(file)
            }}
          />
          <p id="import-file-hint" className="hint">
            GeoJSON, KML or KMZ (Google My Maps, Google Earth), GPX, CSV (a spreadsheet), or a WordPress export (Tools → Export). The format is told by the
            content. Nothing is written until you confirm.
          </p>
        </div>
      )}
      {upload && (
        <p className="import-progress">
          <progress max={upload.total || 1} value={upload.loaded} aria-label={`Upload of ${upload.name}`} /> Uploading {upload.name}:{' '}
          {Math.round((100 * upload.loaded) / (upload.total || 1))}%
        </p>
      )}
      {pending && (
        <p role="status" className="import-progress">
          {preview ? 'Importing…' : 'Reading the file…'}
        </p>
      )}
      <Notice notice={notice} />
      {preview && request && (
        <section aria-labelledby="import-summary-heading">
          <h2 id="import-summary-heading">Before importing {request.name}</h2>
          {preview.kind === 'places' ? <PlacesSummary preview={preview} /> : <WxrSummary preview={preview} />}
          {preview.kind === 'places' && preview.layout && (
            <CsvMapping key={JSON.stringify(preview.layout)} layout={preview.layout} pending={pending} onRead={(csv) => read({ ...request, csv })} />
          )}
          <div className="import-actions">
            <button type="button" onClick={importNow} disabled={pending || !canImport(preview)}>
              {importLabel(preview)}
            </button>
            <button type="button" className="secondary" onClick={reset} disabled={pending}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {result && (
        <section aria-labelledby="import-done-heading">
          <h2 id="import-done-heading">Imported</h2>
          <p role="status">
            {result.kind === 'places'
              ? `${plural(result.ids.length, 'post')} imported${result.trip ? `, on the trip “${result.trip.title}”` : ''}.`
              : `${plural(result.summary.posts, 'post')}, ${plural(result.summary.categories, 'category', 'categories')}, ${plural(result.summary.tags, 'tag')} and ${plural(result.summary.comments, 'comment')} imported.`}{' '}
            <a href="/admin">See the posts</a>
            {result.kind === 'places' && result.trip && (
              <>
                {' '}
                or <a href={`/trip/${result.trip.slug}`}>the trip</a>
              </>
            )}
          </p>
          <button type="button" onClick={reset}>
            Import another file
          </button>
        </section>
      )}
    </div>
  )
}

function canImport(preview: ImportPreview): boolean {
  return preview.kind === 'places'
    ? preview.problems.length === 0 && (preview.posts > 0 || preview.trip !== undefined)
    : preview.mayAddUsers && preview.summary.posts > 0
}

function importLabel(preview: ImportPreview): string {
  const posts = preview.kind === 'places' ? preview.posts : preview.summary.posts
  return posts > 0 ? `Import ${plural(posts, 'post')}` : 'Import'
}

function PlacesSummary({ preview }: { preview: Extract<ImportPreview, { kind: 'places' }> }) {
  return (
    <>
      {preview.problems.length > 0 ? (
        <>
          <p>
            {preview.format === 'unknown' ? 'The file cannot be read' : `This ${preview.format} file cannot be imported as it is`}: nothing will be written
            until each of these is put right{preview.layout ? ' (for a CSV file, perhaps by choosing its columns below)' : ''}.
          </p>
          <ul className="import-problems">
            {preview.problems.map((problem, i) => (
              <li key={i}>{problem}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>
          This {preview.format} file has {plural(preview.posts, preview.item)}: each becomes a post, with its place. You are its author where the file names
          none.
        </p>
      )}
      {preview.trip && (
        <details>
          <summary>
            {plural(preview.trip.lines.length, 'line')} (tracks, routes) will make the trip “{preview.trip.title}”, which the posts will belong to
          </summary>
          <ul>
            {preview.trip.lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </details>
      )}
      {preview.skipped.length > 0 && (
        <details>
          <summary>{plural(preview.skipped.length, 'item')} that are no place (areas, overlays) will be left out</summary>
          <ul>
            {preview.skipped.map((skipped, i) => (
              <li key={i}>{skipped}</li>
            ))}
          </ul>
        </details>
      )}
      {preview.notes.map((note, i) => (
        <p key={i} className="hint">
          Note: {note}.
        </p>
      ))}
    </>
  )
}

function WxrSummary({ preview: { summary, mayAddUsers } }: { preview: Extract<ImportPreview, { kind: 'wxr' }> }) {
  const leftOut = Object.entries(summary.leftOut).map(([kind, count]) => `${count} × ${kind}`)
  return (
    <>
      <p>
        This WordPress export has {plural(summary.posts, 'post')} to import, with {plural(summary.categories, 'new category', 'new categories')},{' '}
        {plural(summary.tags, 'new tag')} and {plural(summary.comments, 'comment')}
        {summary.skipped > 0 ? `; ${plural(summary.skipped, 'item')} already imported` : ''}.
      </p>
      {summary.newUsers.length > 0 && (
        <p>
          Its authors become users, who cannot sign in until a password is set: {summary.newUsers.join(', ')}.
          {!mayAddUsers && ' Only an administrator may add users: ask one to import this file.'}
        </p>
      )}
      {summary.photosWithoutFiles > 0 && (
        <p>
          {plural(summary.photosWithoutFiles, 'photo')} will not be imported, as their files are not in the export: import the file on the server with{' '}
          <code>places import-wxr FILE.xml --uploads wp-content/uploads</code> instead, or, after this import, run it again there with <code>--uploads</code>{' '}
          and only the photos are added.
        </p>
      )}
      {leftOut.length > 0 && <p className="hint">Left out, as Places does not keep them: {leftOut.join(', ')}.</p>}
      {summary.warnings.length > 0 && (
        <details>
          <summary>{plural(summary.warnings.length, 'warning')}</summary>
          <ul className="import-problems">
            {summary.warnings.map((warning, i) => (
              <li key={i}>{warning}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  )
}

/** A CSV file's columns, delimiter and decimal mark, as read; changed, the file is read again with them. */
function CsvMapping({
  layout,
  pending,
  onRead,
}: {
  layout: NonNullable<Extract<ImportPreview, { kind: 'places' }>['layout']>
  pending: boolean
  onRead: (csv: CsvOptions) => void
}) {
  return (
    <form
      className="csv-mapping"
      onSubmit={(event) => {
        event.preventDefault()
        const form = new FormData(event.currentTarget)
        const value = (name: string) => {
          const entry = form.get(name)
          return typeof entry === 'string' ? entry : ''
        }
        // Every field, '' for none: a field left without a column is not then found by its name.
        const columns = Object.fromEntries(FIELDS.map((field) => [field, value(field)]))
        onRead({ columns, delimiter: value('delimiter') as CsvOptions['delimiter'], decimalComma: value('decimal') === 'comma' })
      }}
    >
      <fieldset>
        <legend>Columns</legend>
        <p className="hint">Which column holds each field. Title, latitude and longitude are needed; a post may have no location if both are empty.</p>
        <div className="csv-columns">
          {FIELDS.map((field) => (
            <div key={field} className="field">
              <label htmlFor={`column-${field}`}>{FIELD_LABELS[field]}</label>
              <select id={`column-${field}`} name={field} defaultValue={layout.columns[field] ?? ''}>
                <option value="">(none)</option>
                {layout.header.map((name, i) => (
                  <option key={i} value={name}>
                    {name || `(column ${i + 1})`}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </div>
      </fieldset>
      <div className="csv-format">
        <div className="field">
          <label htmlFor="csv-delimiter">Delimiter</label>
          <select id="csv-delimiter" name="delimiter" defaultValue={layout.delimiter}>
            {Object.entries(DELIMITER_NAMES).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="csv-decimal">Decimal mark</label>
          <select id="csv-decimal" name="decimal" defaultValue={layout.decimalComma ? 'comma' : 'point'}>
            <option value="point">Point (48.8584)</option>
            <option value="comma">Comma (48,8584)</option>
          </select>
        </div>
      </div>
      <button type="submit" className="secondary" disabled={pending}>
        Read again with these columns
      </button>
    </form>
  )
}
