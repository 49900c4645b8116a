import { getCollection, getItems, getTripItems, parseItemsQuery } from '@/lib/ogc/features'
import { itemsHtml, tripItemsHtml } from '@/lib/ogc/html'
import { TRIPS_COLLECTION } from '@/lib/ogc/trips'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId}/items – the collection's places (or trips), paged, optionally in a bbox
export const GET = ogcRoute(
  'application/geo+json',
  async (request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items'>, version: number) => {
    const { collectionId } = await params
    const query = parseItemsQuery(new URL(request.url).searchParams)
    if (collectionId === TRIPS_COLLECTION) {
      const trips = await getTripItems(query, version)
      return { json: trips, html: async () => tripItemsHtml(trips, await getCollection(collectionId, version)) }
    }
    const items = await getItems(collectionId, query, version)
    return { json: items, html: async () => itemsHtml(items, await getCollection(collectionId, version)) }
  },
  parseItemsQuery,
)

export const OPTIONS = preflight
