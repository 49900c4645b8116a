import { getCollection } from '@/lib/ogc/features'
import { collectionHtml } from '@/lib/ogc/html'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId} – one collection
export const GET = ogcRoute(async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]'>) => {
  const collection = await getCollection((await params).collectionId)
  return { json: collection, contentType: 'application/json', html: () => collectionHtml(collection) }
})
