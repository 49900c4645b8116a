import { route } from '@/lib/http/route'
import { getConformance } from '@/lib/ogc/features'

// GET /ogc/conformance – the conformance classes this API meets
export const GET = route(() => Response.json(getConformance()), { cors: true })
