import 'server-only'
import { canExport, type Actor } from '../auth/capabilities'
import { getConfig } from '../config'
import { forbidden } from '../http/errors'
import { textStream } from '../http/text-stream'
import { exportPlaces } from '../places/export'
import { MEDIA_TYPES } from '../places/formats/names'
import { writePlaces } from '../places/formats/write'
import { getSiteSettings } from '../site'
import { slugify } from '../slugs'
import { writeWxr } from '../wxr/export'

/** The admin's Export screen's formats: `places export --all-statuses` and `places export --format wxr`. */
export const SITE_EXPORT_FORMATS = ['geojson', 'wxr'] as const
export type SiteExportFormat = (typeof SITE_EXPORT_FORMATS)[number]

export function isSiteExportFormat(value: string | null): value is SiteExportFormat {
  return (SITE_EXPORT_FORMATS as readonly (string | null)[]).includes(value)
}

/**
 * The whole site as a download, for administrators only (WordPress's `export`): every status and exact locations,
 * which no one else may see. Named as WordPress names its export, `site.WordPress.2026-12-06.xml`.
 */
export async function siteExportResponse(actor: Actor | null, format: SiteExportFormat): Promise<Response> {
  if (!canExport(actor)) throw forbidden()
  const { siteUrl } = getConfig()
  const settings = await getSiteSettings()
  const day = new Date().toISOString().slice(0, 10)
  // A header holds ASCII only: a title in another script gives the default name.
  const site =
    slugify(settings.title)
      .replace(/[^a-z0-9_-]/g, '')
      .slice(0, 60) || 'places'
  const [chunks, name, type] =
    format === 'wxr'
      ? [writeWxr({ siteUrl, settings }), `${site}.WordPress.${day}.xml`, 'application/rss+xml; charset=utf-8']
      : [writePlaces('geojson', exportPlaces({ allStatuses: true }), { siteUrl, name: settings.title }), `${site}.places.${day}.geojson`, MEDIA_TYPES.geojson]
  return new Response(textStream(chunks), {
    headers: {
      'Content-Type': type,
      'Content-Disposition': `attachment; filename="${name}"`,
      // Exact locations and drafts: no shared cache may keep a copy.
      'Cache-Control': 'private, no-store',
    },
  })
}
