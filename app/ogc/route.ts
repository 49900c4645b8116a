import { getLandingPage } from '@/lib/ogc/features'
import { landingHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'
import { getSiteSettings } from '@/lib/site'

// GET /ogc – OGC API – Features landing page
export const GET = ogcRoute('application/json', async () => {
  const page = getLandingPage((await getSiteSettings()).title)
  return { json: page, html: () => landingHtml(page) }
})

export const OPTIONS = preflight
