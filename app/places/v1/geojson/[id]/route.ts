import { noRoute } from '@/lib/http/errors'
import { preflight, publicResponse, route } from '@/lib/http/route'
import { getPlaceFeature } from '@/lib/places/public'
import { parseFeatureQuery, parsePostId } from '@/lib/places/schemas'

// GET /places/v1/geojson/{id} – one published place as a GeoJSON Feature
export const GET = route(
  async (request: Request, { params }: RouteContext<'/places/v1/geojson/[id]'>) => {
    const id = parsePostId((await params).id)
    if (id === null) throw noRoute()
    const answer = await getPlaceFeature(id, parseFeatureQuery(new URL(request.url).searchParams))
    return publicResponse(request, answer)
  },
  { cors: true },
)

export const OPTIONS = preflight
