import 'server-only'
import type { z } from 'zod'
import type { oembedSchema } from '../api/contract'
import { escapeHtml, escapeXml } from '../content/xml'
import { getConfig } from '../config'
import { getSiteSettings } from '../site'
import { ApiError, invalidParams } from '../http/errors'
import { firstPictures } from '../media/pictures'
import { listPublicCategoryTree } from './categories'
import { findPostPage, largestImage } from './post-page'
import { isPostTypeKey } from './post-fields'
import { parseMapState, queryValues } from './schemas'

// oEmbed (https://oembed.com) as WordPress answers it at /wp-json/oembed/1.0/embed: WordPress, Discourse and other
// consumers find it through the <link rel="alternate" type="application/json+oembed"> of a page (oembedDiscovery)
// and embed the page as the map it shows, in an <iframe> of /embed. docs/api.md, "oEmbed".

/** WordPress's default and largest width of an embed, and its smallest height. */
const DEFAULT_WIDTH = 600
const MIN_HEIGHT = 200
/** The zoom of a post's embedded map: its streets. */
export const POST_EMBED_ZOOM = 15
/** The home map's parameters that an embedded map takes too (README, "Parameters for maps"). */
const MAP_PARAMS = ['post_type', 'category', 'zoom', 'lat', 'lng', 'search'] as const

/** WordPress's answer for a URL it does not embed: another site's, an unknown page, a post without a public place. */
const invalidUrl = () => new ApiError('oembed_invalid_url', 'Not Found')

/** The answer's shape is the contract's (lib/api/contract.ts), which the OpenAPI document describes. */
export type OEmbed = z.output<typeof oembedSchema>

export type OEmbedQuery = { url: string; maxwidth: number | null; maxheight: number | null; format: 'json' | 'xml' }

const DIMENSION = /^\d{1,6}$/

/** The query of GET /wp-json/oembed/1.0/embed: `url` (required), `maxwidth`, `maxheight`, `format` (json or xml). */
export function parseOEmbedQuery(params: URLSearchParams): OEmbedQuery {
  const values = queryValues(params, 'last')
  if (!values.url) throw new ApiError('rest_missing_callback_param', 'Missing parameter(s): url', { params: ['url'] })
  const invalid: Record<string, string> = {}
  const dimension = (name: 'maxwidth' | 'maxheight'): number | null => {
    const value = values[name]
    if (value === undefined || value === '') return null
    if (DIMENSION.test(value) && Number(value) > 0) return Number(value)
    invalid[name] = `${name} must be a positive integer (pixels).`
    return null
  }
  const maxwidth = dimension('maxwidth')
  const maxheight = dimension('maxheight')
  const format = values.format ?? 'json'
  if (format !== 'json' && format !== 'xml') invalid.format = 'format is not one of json and xml.'
  if (Object.keys(invalid).length > 0) throw invalidParams(invalid)
  return { url: values.url, maxwidth, maxheight, format: format as 'json' | 'xml' }
}

/**
 * The oEmbed discovery links of a page of this site (its absolute URL), JSON and XML as WordPress gives them: for a
 * page's metadata, `alternates.types`.
 */
export function oembedDiscovery(pageUrl: string): Record<'application/json+oembed' | 'text/xml+oembed', string> {
  const url = `${getConfig().siteUrl}/wp-json/oembed/1.0/embed?${new URLSearchParams({ url: pageUrl }).toString()}`
  return { 'application/json+oembed': url, 'text/xml+oembed': `${url}&format=xml` }
}

/** The oEmbed discovery links of the home map with these parameters (its page's searchParams): the map's own only. */
export function mapOEmbedDiscovery(searchParams: Record<string, string | string[] | undefined>): ReturnType<typeof oembedDiscovery> {
  const params = new URLSearchParams()
  for (const name of MAP_PARAMS) {
    const value = searchParams[name]
    const last = Array.isArray(value) ? value.at(-1) : value
    if (last) params.set(name, last)
  }
  return oembedDiscovery(`${getConfig().siteUrl}/${params.size > 0 ? `?${params.toString()}` : ''}`)
}

/**
 * The size of the embed: as wide as `maxwidth` allows, up to 600 pixels, 16:9 but at least 200 high, as WordPress
 * sizes it; never past `maxwidth` or `maxheight`, as the oEmbed specification asks of a provider.
 */
function embedSize({ maxwidth, maxheight }: Pick<OEmbedQuery, 'maxwidth' | 'maxheight'>): { width: number; height: number } {
  const width = Math.min(maxwidth ?? DEFAULT_WIDTH, DEFAULT_WIDTH)
  const height = Math.max(Math.ceil((width / 16) * 9), MIN_HEIGHT)
  return { width, height: Math.min(height, maxheight ?? height) }
}

function iframe(src: string, title: string, { width, height }: { width: number; height: number }): string {
  return `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" title="${escapeHtml(title)}" loading="lazy" style="border:0" allowfullscreen></iframe>`
}

/**
 * What to embed for a URL of this site: the home map (`/`, with its parameters), or a published post's page: its map,
 * centred on it, when its location is public and has a point, else a link to it (oEmbed's `link` type: its title and
 * picture, nothing of its location). Anything else is WordPress's 404 `oembed_invalid_url`, whatever the reason: a
 * draft and nothing at all are told apart by no one.
 */
export async function getOEmbed(query: OEmbedQuery): Promise<OEmbed> {
  const siteUrl = getConfig().siteUrl
  let url: URL
  try {
    url = new URL(query.url)
  } catch {
    throw invalidUrl()
  }
  if (url.origin !== new URL(siteUrl).origin) throw invalidUrl()
  const size = embedSize(query)
  const { title: name } = await getSiteSettings()
  const base = { version: '1.0', provider_name: name, provider_url: siteUrl, author_name: name, author_url: siteUrl } as const
  if (url.pathname === '/') {
    const title = await mapTitle(url.searchParams)
    const params = new URLSearchParams()
    for (const name of MAP_PARAMS) {
      const value = url.searchParams.get(name)
      if (value) params.set(name, value)
    }
    const src = `${siteUrl}/embed${params.size > 0 ? `?${params.toString()}` : ''}`
    return { ...base, type: 'rich', title, ...size, html: iframe(src, title, size) }
  }
  const post = await postOf(url.pathname)
  if (!post) throw invalidUrl()
  const picture = (await firstPictures([post.id])).get(post.id)
  const image = picture && largestImage(picture)
  const thumbnail = image ? { thumbnail_url: image.url, thumbnail_width: image.width, thumbnail_height: image.height } : {}
  const point = post.location?.point
  if (!point) return { ...base, type: 'link', title: post.title, ...thumbnail }
  const params = new URLSearchParams({
    ...(post.type === 'post' ? {} : { post_type: post.type }),
    lat: String(point.latitude),
    lng: String(point.longitude),
    zoom: String(POST_EMBED_ZOOM),
  })
  return { ...base, type: 'rich', title: post.title, ...size, html: iframe(`${siteUrl}/embed?${params.toString()}`, post.title, size), ...thumbnail }
}

async function postOf(pathname: string) {
  // `/type/slug/` is the same page, as Next.js redirects it.
  const segments = pathname.replace(/(.)\/$/, '$1').split('/')
  if (segments.length !== 3) return null
  try {
    const [type, slug] = [decodeURIComponent(segments[1]!), decodeURIComponent(segments[2]!)]
    return isPostTypeKey(type) && slug ? await findPostPage(type, slug) : null
  } catch {
    return null
  }
}

/** "Map of places", or of the category the map shows when the public may see it (it has public places). */
async function mapTitle(params: URLSearchParams): Promise<string> {
  const { postType, categoryId } = parseMapState(Object.fromEntries(params))
  const category = categoryId === null ? undefined : (await listPublicCategoryTree(postType)).find((node) => node.id === categoryId)
  return category ? `Map of places: ${category.name}` : 'Map of places'
}

/** The answer as WordPress writes it in XML (format=xml): one element per member, under <oembed>. */
export function oembedXml(answer: OEmbed): string {
  const members = Object.entries(answer).map(([name, value]) => `<${name}>${escapeXml(String(value))}</${name}>`)
  return `<?xml version="1.0"?>\n<oembed>${members.join('')}</oembed>\n`
}
