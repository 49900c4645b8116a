import { restIndexBody } from '@/lib/api/rest-index'
import { getConfig } from '@/lib/config'
import { cachedBody } from '@/lib/http/cache'
import { preflight, publicResponse, route } from '@/lib/http/route'

// GET /wp-json/ (and /?rest_route=/) – the site's REST index, where WordPress clients discover the API (docs/api.md, Discovery)
export const GET = route(
  (request: Request) => {
    const { body, etag } = restIndexBody(getConfig())
    // Kept in the answers' cache by its ETag (it changes with the configuration, not the data), so that each coding is
    // compressed once.
    const key = JSON.stringify(['rest-index', etag])
    return publicResponse(request, {
      etag,
      body: (coding) => cachedBody(0, key, () => Promise.resolve(body), coding),
      contentType: 'application/json; charset=UTF-8',
    })
  },
  { cors: true },
)

export const OPTIONS = preflight
