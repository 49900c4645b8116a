import { route } from '@/lib/http/route'
import { getLandingPage } from '@/lib/ogc/features'

// GET /ogc – OGC API – Features landing page
export const GET = route(() => Response.json(getLandingPage()), { cors: true })
