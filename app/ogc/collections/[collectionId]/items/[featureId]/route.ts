import { getCollection, getItem } from '@/lib/ogc/features'
import { itemHtml } from '@/lib/ogc/html'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId}/items/{featureId} – one place
export const GET = ogcRoute(async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items/[featureId]'>) => {
  const { collectionId, featureId } = await params
  const item = await getItem(collectionId, featureId)
  return { json: item, contentType: 'application/geo+json', html: async () => itemHtml(item, await getCollection(collectionId)) }
})
