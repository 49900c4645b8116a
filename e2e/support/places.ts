import { readFileSync } from 'node:fs'
import path from 'node:path'
import { bulkFeatures } from '../fixtures/bulk.mts'

// What the server must answer, computed from the fixture files and the rules of docs/api.md,
// never from the server itself.

export const FIXTURE_FILE = path.join(__dirname, '..', 'fixtures', 'places.geojson')

type FixtureFeature = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] } | null
  properties: {
    id: number
    title: string
    slug: string
    type?: string
    status?: string
    date: string
    address?: string
    geo_public?: boolean
    categories?: string[]
  }
}

/** One post of the fixtures, with the import format's defaults applied (docs/cli.md). */
export type FixturePost = {
  id: number
  title: string
  slug: string
  type: string
  status: string
  date: number
  address: string
  geoPublic: boolean
  coordinates: [number, number] | null
  categories: string[]
}

export type Feature = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: { id: number; title: string; url: string; address: string }
}

function toPost({ geometry, properties: p }: FixtureFeature): FixturePost {
  return {
    id: p.id,
    title: p.title,
    slug: p.slug,
    type: p.type ?? 'post',
    status: p.status ?? 'publish',
    date: Date.parse(p.date),
    address: p.address ?? '',
    geoPublic: p.geo_public ?? true,
    coordinates: geometry ? geometry.coordinates : null,
    categories: p.categories ?? [],
  }
}

export const fixtureFeatures = (JSON.parse(readFileSync(FIXTURE_FILE, 'utf8')) as { features: FixtureFeature[] }).features
/** The hand-written posts, in file order. */
export const fixturePosts: FixturePost[] = fixtureFeatures.map(toPost)
export const bulkPosts: FixturePost[] = bulkFeatures().map(toPost)
export const allPosts: FixturePost[] = [...fixturePosts, ...bulkPosts]

export function postById(id: number): FixturePost {
  const post = allPosts.find((p) => p.id === id)
  if (!post) throw new Error(`no post ${id} in the fixtures`)
  return post
}

export function fixturePost(title: string): FixturePost {
  const post = fixturePosts.find((p) => p.title === title)
  if (!post) throw new Error(`no post titled ${title} in the fixtures`)
  return post
}

/** Published, with a latitude and a longitude, and a public location: shown by both geojson routes. */
export function isPublicPlace(post: FixturePost): boolean {
  return post.status === 'publish' && post.coordinates !== null && post.geoPublic
}

export const publicPlaces = allPosts.filter(isPublicPlace)
/** Posts that exist but that no public route may show. */
export const hiddenPosts = allPosts.filter((p) => !isPublicPlace(p))

/** properties.url: the absolute URL of the post's page, `${SITE_URL}/${type}/${slug}` (normalised as a URL). */
export function expectedUrl(siteUrl: string, post: Pick<FixturePost, 'type' | 'slug'>): string {
  return new URL(`${siteUrl}/${encodeURIComponent(post.type)}/${encodeURIComponent(post.slug)}`).href
}

export function expectedFeature(siteUrl: string, post: FixturePost): Feature {
  if (!post.coordinates) throw new Error(`post ${post.id} has no geodata`)
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [post.coordinates[0], post.coordinates[1]] },
    properties: { id: post.id, title: post.title, url: expectedUrl(siteUrl, post), address: post.address },
  }
}

/** Newest publish date first; ties by id, higher first (docs/api.md, Ordering). */
export function byDateThenIdDesc(a: FixturePost, b: FixturePost): number {
  return b.date - a.date || b.id - a.id
}

/** Whether a post is in category `path` or one of its descendants (as WordPress's `cat`). */
export function isInCategory(post: FixturePost, categoryPath: string): boolean {
  return post.categories.some((c) => c === categoryPath || c.startsWith(`${categoryPath} > `))
}

export type CollectionQuery = { postType?: string; categoryPath?: string | null; limit?: number }

/** The posts GET /geojson must list, in order. */
export function expectedPosts({ postType = 'post', categoryPath = null, limit = 50 }: CollectionQuery = {}): FixturePost[] {
  return publicPlaces
    .filter((p) => p.type === postType && (categoryPath === null || isInCategory(p, categoryPath)))
    .sort(byDateThenIdDesc)
    .slice(0, limit)
}

export function expectedIds(query: CollectionQuery = {}): number[] {
  return expectedPosts(query).map((p) => p.id)
}

export function expectedCollectionFeatures(siteUrl: string, query: CollectionQuery = {}): Feature[] {
  return expectedPosts(query).map((p) => expectedFeature(siteUrl, p))
}

/** Every category path of the fixtures, each ancestor before its children, in order of first appearance. */
export function categoryPathsInOrderOfAppearance(): string[] {
  const paths: string[] = []
  for (const post of fixturePosts) {
    for (const full of post.categories) {
      const names = full.split('>').map((n) => n.trim())
      names.forEach((_, i) => {
        const prefix = names.slice(0, i + 1).join(' > ')
        if (!paths.includes(prefix)) paths.push(prefix)
      })
    }
  }
  return paths
}

/** A feature as the server sent it, with properties.url normalised as a URL (a raw or a %-encoded slug). */
export function normaliseFeature(feature: Feature): Feature {
  return { ...feature, properties: { ...feature.properties, url: new URL(feature.properties.url).href } }
}
