import { route } from '@/lib/http/route'
import { getCollections } from '@/lib/ogc/features'

// GET /ogc/collections – one collection per post type with public places
export const GET = route(async () => Response.json(await getCollections()), { cors: true })
