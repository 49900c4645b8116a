import { getCollection, getItems, parseItemsQuery } from '@/lib/ogc/features'
import { itemsHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId}/items – the collection's places, paged, optionally in a bbox
export const GET = ogcRoute(
  'application/geo+json',
  async (request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items'>, version: number) => {
    const { collectionId } = await params
    const items = await getItems(collectionId, parseItemsQuery(new URL(request.url).searchParams), version)
    return { json: items, html: async () => itemsHtml(items, await getCollection(collectionId, version)) }
  },
  parseItemsQuery,
)

export const OPTIONS = preflight
