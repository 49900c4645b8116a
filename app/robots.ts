import type { MetadataRoute } from 'next'
import { getConfig } from '@/lib/config'

// SITE_URL is read when the server runs, not when it is built.
export const dynamic = 'force-dynamic'

// GET /robots.txt – crawl everything but the admin and the sign-in page; the sitemap's absolute URL
export default function robots(): MetadataRoute.Robots {
  const { siteUrl } = getConfig()
  return { rules: { userAgent: '*', allow: '/', disallow: ['/admin', '/signin'] }, sitemap: `${siteUrl}/sitemap.xml`, host: siteUrl }
}
