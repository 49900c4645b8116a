import { getConfig } from '@/lib/config'
import { ApiError } from '@/lib/http/errors'
import { route } from '@/lib/http/route'
import { MAX_SITEMAP_PAGE, sitemapFile, sitemapIndex } from '@/lib/places/sitemap'

// GET /sitemap.xml – the index of the sitemap files; GET /sitemap.xml?page=N – file N: published posts' pages
export const GET = route((request: Request) => {
  const page = new URL(request.url).searchParams.get('page')
  if (page !== null && !(/^[1-9]\d{0,5}$/.test(page) && Number(page) <= MAX_SITEMAP_PAGE)) {
    throw new ApiError('rest_invalid_param', `page must be an integer from 1 to ${MAX_SITEMAP_PAGE}.`)
  }
  return xml(page === null ? sitemapIndex() : sitemapFile(Number(page)))
})

// As the GeoJSON routes: a shared cache asks again after SHARED_CACHE_SECONDS, so an unpublished post leaves it soon.
async function xml(body: Promise<string>): Promise<Response> {
  const cacheControl = `public, max-age=0, s-maxage=${getConfig().sharedCacheSeconds}`
  return new Response(await body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': cacheControl } })
}
