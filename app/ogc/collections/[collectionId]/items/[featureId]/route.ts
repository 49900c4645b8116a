import { getCollection, getItem, getTripItem } from '@/lib/ogc/features'
import { itemHtml, tripItemHtml } from '@/lib/ogc/html'
import { TRIPS_COLLECTION } from '@/lib/ogc/trips'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId}/items/{featureId} – one place, or one trip
export const GET = ogcRoute(
  'application/geo+json',
  async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items/[featureId]'>, version: number) => {
    const { collectionId, featureId } = await params
    if (collectionId === TRIPS_COLLECTION) {
      const trip = await getTripItem(featureId, version)
      return { json: trip, html: async () => tripItemHtml(trip, await getCollection(collectionId, version)) }
    }
    const item = await getItem(collectionId, featureId, version)
    return { json: item, html: async () => itemHtml(item, await getCollection(collectionId, version)) }
  },
)

export const OPTIONS = preflight
