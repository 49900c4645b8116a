import { getCollection } from '@/lib/ogc/features'
import { collectionHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections/{collectionId} – one collection
export const GET = ogcRoute('application/json', async (_request: Request, { params }: RouteContext<'/ogc/collections/[collectionId]'>, version: number) => {
  const collection = await getCollection((await params).collectionId, version)
  return { json: collection, html: () => collectionHtml(collection) }
})

export const OPTIONS = preflight
