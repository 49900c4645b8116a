import { getOgcOpenApiDocument } from '@/lib/api/openapi'
import { getConfig } from '@/lib/config'
import { preflight, route } from '@/lib/http/route'
import { OAS30_TYPE } from '@/lib/ogc/features'

// GET /ogc/api – the OpenAPI 3.0 definition of the OGC API – Features (the `oas30` class)
export const GET = route(() => new Response(JSON.stringify(getOgcOpenApiDocument(getConfig())), { headers: { 'Content-Type': OAS30_TYPE } }), {
  cors: true,
})

export const OPTIONS = preflight
