import { siteExportResponse, isSiteExportFormat } from '@/lib/admin/export'
import { getSessionActor } from '@/lib/admin/session'
import { getConfig } from '@/lib/config'
import { ApiError } from '@/lib/http/errors'
import { plainNotFound } from '@/lib/http/route'

// GET /admin/export/file?format=geojson|wxr – the Export screen's download (README, "Export"). Signed out: to the
// sign-in page and back to the screen; signed in without the right (lib/admin/export.ts), or an unknown format: not
// found, as the screen is.
export async function GET(request: Request): Promise<Response> {
  const actor = await getSessionActor()
  if (!actor) return Response.redirect(new URL('/signin?callbackUrl=%2Fadmin%2Fexport', getConfig().siteUrl), 303)
  const format = new URL(request.url).searchParams.get('format')
  if (!isSiteExportFormat(format)) return plainNotFound()
  try {
    return await siteExportResponse(actor, format)
  } catch (error) {
    if (error instanceof ApiError) return plainNotFound()
    throw error
  }
}
