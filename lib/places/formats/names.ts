// The export formats' names and media types, apart from their writers (write.ts): the command line's parser and the
// OpenAPI document name them without loading an HTML sanitiser or a CSV writer.

/** The formats places are written in: `places export --format` and GET /places/v1/export?format=. */
export const EXPORT_FORMATS = ['geojson', 'kml', 'gpx', 'csv'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const MEDIA_TYPES: Record<ExportFormat, string> = {
  geojson: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
  gpx: 'application/gpx+xml',
  csv: 'text/csv; charset=utf-8',
}
