import { getLandingPage } from '@/lib/ogc/features'
import { landingHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc – OGC API – Features landing page
export const GET = ogcRoute('application/json', () => {
  const page = getLandingPage()
  return { json: page, html: () => landingHtml(page) }
})

export const OPTIONS = preflight
