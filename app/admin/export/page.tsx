import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { requireSessionActor } from '@/lib/admin/session'
import { canExport } from '@/lib/auth/capabilities'

export const metadata: Metadata = { title: 'Export' }

const FORMATS = [
  {
    value: 'wxr',
    label: 'WordPress (WXR)',
    hint: 'Also comments, and photos with their titles, captions and alt text. WordPress’s importer (Tools → Import → WordPress) reads it, as does another Places site (places import-wxr).',
  },
  {
    value: 'geojson',
    label: 'GeoJSON',
    hint: 'The posts and their places, as places export --all-statuses writes them: places import, QGIS and other GIS programs read it.',
  },
] as const

// GET /admin/export – administrators only: the whole site as a file, to keep or to move (README, "Export").
export default async function ExportPage() {
  const actor = await requireSessionActor('/admin/export')
  if (!canExport(actor)) notFound()
  return (
    <>
      <h1>Export</h1>
      <p>
        Download everything: posts of every status, their exact locations and privacy levels, categories, tags and excerpts. Keep it as a backup, or take the
        site elsewhere.
      </p>
      <form method="get" action="/admin/export/file">
        <fieldset>
          <legend>Format</legend>
          {FORMATS.map(({ value, label, hint }, i) => (
            <div key={value} className="radio-option">
              <input type="radio" id={`format-${value}`} name="format" value={value} defaultChecked={i === 0} aria-describedby={`format-${value}-hint`} />
              <label htmlFor={`format-${value}`}>{label}</label>
              <p id={`format-${value}-hint`} className="hint">
                {hint}
              </p>
            </div>
          ))}
        </fieldset>
        <p className="hint">
          Privacy zones are not in the file: a location inside one is written at least as coarsely as the zone shows it. Nor are users’ passwords.
        </p>
        <button type="submit">Download export file</button>
      </form>
    </>
  )
}
