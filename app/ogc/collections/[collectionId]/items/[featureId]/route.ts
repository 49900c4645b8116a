import { getCollection, getItem } from '@/lib/ogc/features'
import { itemHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId}/items/{featureId} – one place
export const GET = ogcRoute(
  'application/geo+json',
  async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items/[featureId]'>, version: number) => {
    const { collectionId, featureId } = await params
    const item = await getItem(collectionId, featureId, version)
    return { json: item, html: async () => itemHtml(item, await getCollection(collectionId, version)) }
  },
)

export const OPTIONS = preflight
