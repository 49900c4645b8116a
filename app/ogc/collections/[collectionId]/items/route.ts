import { route } from '@/lib/http/route'
import { getItems, parseItemsQuery } from '@/lib/ogc/features'

// GET /ogc/collections/{collectionId}/items – the collection's places, paged, optionally in a bbox
export const GET = route(
  async (request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items'>) => {
    const query = parseItemsQuery(new URL(request.url).searchParams)
    const items = await getItems((await params).collectionId, query)
    return Response.json(items, { headers: { 'Content-Type': 'application/geo+json' } })
  },
  { cors: true },
)
