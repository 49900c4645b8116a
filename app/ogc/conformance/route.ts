import { getConformance } from '@/lib/ogc/features'
import { conformanceHtml } from '@/lib/ogc/html'
import { preflight } from '@/lib/http/route'
import { ogcRoute } from '@/lib/ogc/respond'

// GET /ogc/conformance – the conformance classes this API meets
export const GET = ogcRoute('application/json', () => {
  const conformance = getConformance()
  return { json: conformance, html: () => conformanceHtml(conformance) }
})

export const OPTIONS = preflight
