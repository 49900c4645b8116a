import { preflight, publicResponse, route } from '@/lib/http/route'
import { getTripCollection } from '@/lib/trips/answers'

// GET /places/v1/trips – the published trips as a GeoJSON FeatureCollection of routes
export const GET = route(async (request: Request) => publicResponse(request, await getTripCollection()), { cors: true })

export const OPTIONS = preflight
