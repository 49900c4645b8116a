import { getOpenApiDocument } from '@/lib/api/openapi'
import { getConfig } from '@/lib/config'
import { preflight, route } from '@/lib/http/route'

// GET /places/v1/openapi.json – the OpenAPI 3.1 description of places/v1
export const GET = route(() => Response.json(getOpenApiDocument(getConfig())), { cors: true })

export const OPTIONS = preflight
