import { getCollections } from '@/lib/ogc/features'
import { collectionsHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/collections – one collection per post type with public places
export const GET = ogcRoute('application/json', async (_request: Request, _context: unknown, version: number) => {
  const collections = await getCollections(version)
  return { json: collections, html: () => collectionsHtml(collections) }
})

export const OPTIONS = preflight
