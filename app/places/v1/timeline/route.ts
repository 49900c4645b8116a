import { preflight, publicResponse, route } from '@/lib/http/route'
import { getTimeline, parseTimelineQuery } from '@/lib/places/timeline'

// GET /places/v1/timeline – how many places of a map view were published in each year or month
export const GET = route(async (request: Request) => publicResponse(request, await getTimeline(parseTimelineQuery(new URL(request.url).searchParams))), {
  cors: true,
})

export const OPTIONS = preflight
