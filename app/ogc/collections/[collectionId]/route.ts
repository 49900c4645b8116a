import { route } from '@/lib/http/route'
import { getCollection } from '@/lib/ogc/features'

// GET /ogc/collections/{collectionId} – one collection
export const GET = route(
  async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]'>) => {
    return Response.json(await getCollection((await params).collectionId))
  },
  { cors: true },
)
