import { restIndexBody } from '@/lib/api/rest-index'
import { getConfig } from '@/lib/config'
import { geojsonResponse, preflight, route } from '@/lib/http/route'

// GET /wp-json/ (and /?rest_route=/) – the site's REST index, where WordPress clients discover the API (docs/api.md, Discovery)
export const GET = route(
  (request: Request) => {
    const { body, etag } = restIndexBody(getConfig())
    return geojsonResponse(request, etag, () => Promise.resolve(body), 'application/json; charset=UTF-8')
  },
  { cors: true },
)

export const OPTIONS = preflight
