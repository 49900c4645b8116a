import 'server-only'
import { getDb, readDataVersion } from '../db'
import { postTypeSchema } from './post-fields'

// Old URLs of posts (WordPress's _wp_old_slug, kept by lib/admin/posts.ts and the WordPress import) answer 301 to the
// post's current page. proxy.ts asks on every GET of a `/{type}/{slug}` page, so the answer comes from a map of every
// old slug that leads somewhere, read once per data version: rows of post_old_slugs are only ever written in the
// transactions that write their posts, whose triggers bump the version (prisma/migrations).

type Redirects = { version: number; targets: Promise<Map<string, string>> }

const cache = globalThis as unknown as { placesOldSlugs?: Redirects }

const keyOf = (type: string, slug: string) => `${type}\0${slug}`

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
  return new Map(rows.map((row) => [keyOf(row.type, row.slug), `/${encodeURIComponent(row.target_type)}/${encodeURIComponent(row.target_slug)}`]))
}

/** Where `/{type}/{slug}` (decoded) moved to: the path of the post's current page, or null. */
export async function findOldSlugTarget(type: string, slug: string): Promise<string | null> {
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
  return (await redirects.targets).get(keyOf(type, slug)) ?? null
}

/**
 * Where a request for `pathname` (as it came, percent-encoded) should be sent for good, when it is the old URL of a
 * post: a path of this site, each segment encoded, so never another site's. Null for any other path, without a
 * database read unless it has the shape of a post's page (`/{type}/{slug}`, a type a post may have).
 */
export async function oldSlugRedirect(pathname: string): Promise<string | null> {
  const match = /^\/([^/]+)\/([^/]+)$/.exec(pathname)
  if (!match) return null
  let type: string, slug: string
  try {
    type = decodeURIComponent(match[1]!)
    slug = decodeURIComponent(match[2]!)
  } catch {
    return null
  }
  if (!postTypeSchema.safeParse(type).success) return null
  return findOldSlugTarget(type, slug)
}
