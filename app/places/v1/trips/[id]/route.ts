import { noRoute } from '@/lib/http/errors'
import { preflight, publicResponse, route } from '@/lib/http/route'
import { parsePostId } from '@/lib/places/schemas'
import { getTripFeature } from '@/lib/trips/answers'

// GET /places/v1/trips/{id} – one published trip as a GeoJSON Feature, its route in detail
export const GET = route(
  async (request: Request, { params }: RouteContext<'/places/v1/trips/[id]'>) => {
    const id = parsePostId((await params).id) // digits, as a post id
    if (id === null) throw noRoute()
    return publicResponse(request, await getTripFeature(id))
  },
  { cors: true },
)

export const OPTIONS = preflight
