import 'server-only'
import { escapeXml } from '../content/xml'
import { getConfig } from '../config'
import { getDb } from '../db'
import { Prisma } from '../generated/sqlite/client'
import { postUrl, tripUrl } from './geojson'
import { PUBLIC_TRIP_WHERE } from './visibility'

// The sitemap (https://www.sitemaps.org/protocol.html) of every published post's page, whatever its location (a page
// shows no private location), of the home map, and of the published trips. A file may hold at most 50,000 URLs, so /sitemap.xml is always an
// index, as WordPress's wp-sitemap.xml is, of files of the posts with ids in one range of POSTS_PER_FILE: each is one
// seek in the primary key, however many posts there are. README, "Sitemap, robots.txt and oEmbed".

export const POSTS_PER_FILE = 10_000
/** The last file: ids are the databases' 32-bit integers. */
export const MAX_SITEMAP_PAGE = Math.ceil(2_147_483_647 / POSTS_PER_FILE)

/** The URL of sitemap file `page` (from 1). */
export const sitemapFileUrl = (page: number): string => `${getConfig().siteUrl}/sitemap.xml?page=${page}`

/** /sitemap.xml: the files that hold at least one published post; the first also holds the home page. */
export async function sitemapIndex(): Promise<string> {
  const rows = await getDb().$queryRaw<{ page: number | bigint }[]>`
    SELECT DISTINCT ("id" - 1) / ${Prisma.raw(String(POSTS_PER_FILE))} AS "page" FROM "posts" WHERE "status" = 'publish' ORDER BY 1`
  const pages = new Set([1, ...rows.map((row) => Number(row.page) + 1)])
  const entries = [...pages].sort((a, b) => a - b).map((page) => `<sitemap><loc>${escapeXml(sitemapFileUrl(page))}</loc></sitemap>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`
}

/** /sitemap.xml?page=N: the pages of the published posts with ids from (N − 1) × POSTS_PER_FILE + 1, by id. */
export async function sitemapFile(page: number): Promise<string> {
  const siteUrl = getConfig().siteUrl
  const posts = await getDb().post.findMany({
    where: { status: 'publish', id: { gt: (page - 1) * POSTS_PER_FILE, lte: page * POSTS_PER_FILE } },
    orderBy: { id: 'asc' },
    select: { type: true, slug: true, modifiedAt: true },
  })
  const entries = posts.map((post) => url(postUrl(siteUrl, post.type, post.slug), post.modifiedAt))
  // The home map changes with every post: no one date says when, and a date would cost a scan of every post. The
  // published trips (a site has tens, not thousands) and their list go with it.
  if (page === 1) {
    const trips = await getDb().trip.findMany({ where: PUBLIC_TRIP_WHERE, orderBy: { id: 'asc' }, select: { slug: true, modifiedAt: true } })
    const tripEntries = trips.map((trip) => url(tripUrl(siteUrl, trip.slug), trip.modifiedAt))
    entries.unshift(url(`${siteUrl}/`, null), ...(trips.length > 0 ? [url(`${siteUrl}/trips`, null), ...tripEntries] : []))
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`
}

const url = (loc: string, lastmod: Date | null): string =>
  `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : ''}</url>`
