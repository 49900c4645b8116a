import { route } from '@/lib/http/route'
import { getItem } from '@/lib/ogc/features'

// GET /ogc/collections/{collectionId}/items/{featureId} – one place
export const GET = route(
  async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]/items/[featureId]'>) => {
    const { collectionId, featureId } = await params
    return Response.json(await getItem(collectionId, featureId), { headers: { 'Content-Type': 'application/geo+json' } })
  },
  { cors: true },
)
