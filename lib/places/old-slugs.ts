import 'server-only'
import { getDb, readDataVersion } from '../db'
import { postTypeSchema } from './post-fields'

// Old URLs of posts (WordPress's _wp_old_slug, kept by lib/admin/posts.ts and the WordPress import; and the addresses
// an imported post had on its WordPress site, its permalink and `?p=ID`) answer 301 to the post's current page.
// proxy.ts asks on GETs of pages, so the answer comes from a map of every old URL that leads somewhere, read once per
// data version: rows of post_old_slugs and post_old_paths are only ever written in the transactions that write their
// posts, whose triggers bump the version (prisma/migrations).

type Redirects = { version: number; targets: Promise<Map<string, string>> }

const cache = globalThis as unknown as { placesOldSlugs?: Redirects }

const keyOf = (type: string, slug: string) => `${type}\0${slug}`
const pathKey = (path: string) => `\0${path}`

/** A WordPress permalink's path as post_old_paths keeps it: decoded, lower case, no trailing slash. */
export function oldPathOf(pathname: string): string | null {
  try {
    const path = decodeURIComponent(pathname).toLowerCase().replace(/\/+$/, '')
    return path.startsWith('/') ? path : null
  } catch {
    return null
  }
}

/**
 * The old slugs of published posts that no published post has as its current slug (one that took it since wins: its
 * URL is its own), each with the path of its post's page. Only published posts hold addresses: a draft with the slug
 * neither ends the redirect nor tells visitors it exists. An unpublished post's old URL says no more than any unknown
 * URL does (404).
 */
async function readTargets(): Promise<Map<string, string>> {
  const rows = await getDb().$queryRaw<{ type: string; slug: string; target_type: string; target_slug: string }[]>`
    SELECT o."type", o."slug", p."type" AS "target_type", p."slug" AS "target_slug"
    FROM "post_old_slugs" o JOIN "posts" p ON p."id" = o."post_id"
    WHERE p."status" = 'publish' AND NOT EXISTS (SELECT 1 FROM "posts" c WHERE c."type" = o."type" AND c."slug" = o."slug" AND c."status" = 'publish')`
  const paths = await getDb().$queryRaw<{ path: string; target_type: string; target_slug: string }[]>`
    SELECT o."path", p."type" AS "target_type", p."slug" AS "target_slug"
    FROM "post_old_paths" o JOIN "posts" p ON p."id" = o."post_id" WHERE p."status" = 'publish'`
  const page = (type: string, slug: string) => `/${encodeURIComponent(type)}/${encodeURIComponent(slug)}`
  return new Map([
    ...paths.map((row): [string, string] => [pathKey(row.path), page(row.target_type, row.target_slug)]),
    ...rows.map((row): [string, string] => [keyOf(row.type, row.slug), page(row.target_type, row.target_slug)]),
  ])
}

/** The map of old URLs to pages, read once per data version. */
async function targets(): Promise<Map<string, string>> {
  const version = await readDataVersion()
  let redirects = cache.placesOldSlugs
  if (redirects?.version !== version) {
    redirects = { version, targets: readTargets() }
    cache.placesOldSlugs = redirects
    // A failed read is tried again by the next request, not kept.
    redirects.targets.catch(() => {
      if (cache.placesOldSlugs === redirects) cache.placesOldSlugs = undefined
    })
  }
  return redirects.targets
}

/** Where `/{type}/{slug}` (decoded) moved to: the path of the post's current page, or null. */
export async function findOldSlugTarget(type: string, slug: string): Promise<string | null> {
  return (await targets()).get(keyOf(type, slug)) ?? null
}

// The site's own pages and routes, which no WordPress permalink may take.
const OWN_PATHS = /^\/(?:admin|signin|signout|embed|wp-json|places|ogc|uploads|feed|category|tag)(?:\/|$)/

/**
 * Where a request for `pathname` (as it came, percent-encoded; `params` its query) should be sent for good, when it
 * is the old URL of a post: a path of this site, each segment encoded, so never another site's. Null for any other
 * path; the home page reads the map only for `?p=` or `?page_id=`, the site's own paths never.
 */
export async function oldSlugRedirect(pathname: string, params: URLSearchParams): Promise<string | null> {
  if (pathname === '/') {
    const id = params.get('p') ?? params.get('page_id')
    return id && /^\d{1,10}$/.test(id) ? ((await targets()).get(pathKey(`?p=${Number(id)}`)) ?? null) : null
  }
  if (OWN_PATHS.test(pathname)) return null
  const match = /^\/([^/]+)\/([^/]+)$/.exec(pathname)
  if (match) {
    let type: string, slug: string
    try {
      type = decodeURIComponent(match[1]!)
      slug = decodeURIComponent(match[2]!)
    } catch {
      return null
    }
    const moved = postTypeSchema.safeParse(type).success ? await findOldSlugTarget(type, slug) : null
    if (moved) return moved
  }
  const path = oldPathOf(pathname)
  const target = path === null ? undefined : (await targets()).get(pathKey(path))
  // Never to itself: a post whose page here is its old address.
  return target && oldPathOf(target) !== path ? target : null
}
