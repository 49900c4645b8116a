import { restIndexBody } from '@/lib/api/rest-index'
import { getConfig } from '@/lib/config'
import { cachedBody } from '@/lib/http/cache'
import { preflight, publicResponse, route } from '@/lib/http/route'
import { offsetMinutes } from '@/lib/dates'
import { getSiteSettings, siteDescription } from '@/lib/site'

// GET /wp-json/ (and /?rest_route=/) – the site's REST index, where WordPress clients discover the API (docs/api.md, Discovery)
export const GET = route(
  async (request: Request) => {
    const settings = await getSiteSettings()
    const site = {
      name: settings.title,
      description: siteDescription(settings),
      timezone: settings.timezone,
      gmtOffset: offsetMinutes(Date.now(), settings.timezone) / 60,
    }
    const { body, etag } = restIndexBody(getConfig(), site)
    // Kept in the answers' cache by its ETag (it changes with the configuration and the settings, not with the rest of
    // the data), so that each coding is compressed once.
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
