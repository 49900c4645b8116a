import { preflight, publicResponse, route } from '@/lib/http/route'
import { getPlacesCollection } from '@/lib/places/public'
import { parseCollectionQuery } from '@/lib/places/schemas'

// GET /places/v1/geojson – published places of one type as a GeoJSON FeatureCollection
export const GET = route(
  async (request: Request) => {
    const query = parseCollectionQuery(new URL(request.url).searchParams)
    const answer = await getPlacesCollection(query)
    return publicResponse(request, answer)
  },
  { cors: true },
)

export const OPTIONS = preflight
