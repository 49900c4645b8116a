import { getCollections } from '@/lib/ogc/features'
import { collectionsHtml } from '@/lib/ogc/html'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections – one collection per post type with public places
export const GET = ogcRoute(async () => {
  const collections = await getCollections()
  return { json: collections, contentType: 'application/json', html: () => collectionsHtml(collections) }
})
