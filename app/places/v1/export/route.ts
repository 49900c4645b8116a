import { exportResponse, parseExportQuery } from '@/lib/places/formats/public'
import { preflight, route } from '@/lib/http/route'

// GET /places/v1/export – what the public sees of a map view as a file: GeoJSON, KML, GPX or CSV
export const GET = route((request: Request) => exportResponse(parseExportQuery(new URL(request.url).searchParams)), { cors: true })

export const OPTIONS = preflight
