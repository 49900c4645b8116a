import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { cache } from 'react'
import { Picture } from '@/app/_components/picture'
import { getConfig } from '@/lib/config'
import { withVideoCards } from '@/lib/content/embeds'
import { cleanContent } from '@/lib/content/html'
import { contentImagePaths, withContentPictures } from '@/lib/content/pictures'
import { summaryOf } from '@/lib/content/summary'
import { picturesAt, postPictures } from '@/lib/media/pictures'
import { findPreviewPage } from '@/lib/admin/preview'
import { getSessionActor } from '@/lib/admin/session'
import { findPostComments } from '@/lib/places/comments'
import { feedLinks } from '@/lib/places/feed'
import { oembedDiscovery } from '@/lib/places/oembed'
import { findNearbyPlaces, findPostPage, largestImage, type NearbyPlace, type PostPage, type PostTerm } from '@/lib/places/post-page'
import { getSiteSettings } from '@/lib/site'
import { PostMapLoader } from './post-map-loader'
import { PhotoViewer } from './photo-viewer'
import { Comments } from './comments'
import { VideoCards } from './video-cards'

type Props = PageProps<'/[type]/[slug]'>

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    notFound()
  }
}

// Once per request, for the metadata and the page alike.
const loadPost = cache(async (type: string, slug: string) => findPostPage(type, slug))
const loadPreview = cache(async (type: string, slug: string) => findPreviewPage(await getSessionActor(), type, slug))
const loadPictures = cache(postPictures)

type Shown = { post: PostPage; preview: boolean }

/**
 * The published post, or with ?preview=true the post as one who may edit it previews it (lib/admin/preview.ts);
 * anyone else gets the published post, or the same 404 as for no post.
 */
async function getPostOrNotFound({ params, searchParams }: Props): Promise<Shown> {
  const [{ type, slug }, { preview }] = await Promise.all([params, searchParams])
  if (preview === 'true') {
    const post = await loadPreview(decoded(type), decoded(slug))
    if (post) return { post, preview: true }
  }
  const post = await loadPost(decoded(type), decoded(slug))
  // An old slug of a published post never gets here: proxy.ts answers it with a 301 (lib/places/old-slugs.ts).
  if (!post) notFound()
  return { post, preview: false }
}

/** The excerpt, else the start of the text; the address for a post with neither. */
function describe(post: PostPage): string | undefined {
  return summaryOf(post) || post.location?.address || undefined
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { post, preview } = await getPostOrNotFound(props)
  const [picture] = await loadPictures(post.id)
  const image = picture && { ...largestImage(picture), alt: picture.alt }
  const description = describe(post)
  // Only a public point is a Feature (GET /places/v1/geojson/{id}); every post embeds, as a map or a link (docs/api.md, "oEmbed").
  const types: Record<string, string | { title: string; url: string }[]> = { ...oembedDiscovery(post.url), 'application/rss+xml': await feedLinks() }
  if (post.location?.point) types['application/geo+json'] = `${getConfig().siteUrl}/places/v1/geojson/${post.id}`
  return {
    title: post.title,
    description,
    // A preview is its editor's alone: never indexed, never followed.
    ...(preview ? { robots: { index: false, follow: false } } : {}),
    alternates: { canonical: post.url, types },
    openGraph: {
      type: 'article',
      siteName: (await getSiteSettings()).title,
      title: post.title,
      description,
      url: post.url,
      publishedTime: post.publishedAt.toISOString(),
      modifiedTime: post.modifiedAt.toISOString(),
      ...(image ? { images: [image] } : {}),
    },
    twitter: { card: image ? 'summary_large_image' : 'summary', title: post.title, description, ...(image ? { images: [image] } : {}) },
  }
}

/**
 * schema.org's Place, as JSON-LD. Its `<` are written `\u003c`, so that no title can end the script element; the
 * script is data, never run, so the CSP's nonce is not needed. `geo` and `address` only for a public location.
 */
function jsonLd(post: PostPage, images: string[]): string {
  const { location } = post
  const place = {
    '@context': 'https://schema.org',
    '@type': 'Place',
    name: post.title,
    url: post.url,
    ...(describe(post) ? { description: describe(post) } : {}),
    ...(location?.address ? { address: location.address } : {}),
    ...(location?.point ? { geo: { '@type': 'GeoCoordinates', latitude: location.point.latitude, longitude: location.point.longitude } } : {}),
    ...(images.length > 0 ? { image: images } : {}),
  }
  return JSON.stringify(place).replace(/</g, '\\u003c')
}

const kilometres = new Intl.NumberFormat('en', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 })
const metres = new Intl.NumberFormat('en', { style: 'unit', unit: 'meter', maximumFractionDigits: 0 })

function distance(place: NearbyPlace): string {
  if (place.metres < 1000) return metres.format(Math.round(place.metres / 10) * 10)
  return kilometres.format(place.metres < 10_000 ? place.metres / 1000 : Math.round(place.metres / 1000))
}

// A published post's public page: the target of properties.url. React escapes every text it renders; what it shows
// of the location is what lib/places/visibility.ts lets the public see, and nothing of it when the location is private.
export default async function PostPage(props: Props) {
  const { post, preview } = await getPostOrNotFound(props)
  const point = post.location?.point
  // Cleaned again as it is shown: whatever wrote it, only what lib/content/html.ts allows reaches the page.
  const content = cleanContent(post.content, getConfig().siteUrl)
  const [pictures, nearby, comments, contentPictures, { timezone }] = await Promise.all([
    loadPictures(post.id),
    findNearbyPlaces(post),
    findPostComments(post.id),
    picturesAt(contentImagePaths(content)),
    getSiteSettings(),
  ])
  const [lead, ...more] = pictures
  const osm = point ? `https://www.openstreetmap.org/?mlat=${point.latitude}&mlon=${point.longitude}#map=15/${point.latitude}/${point.longitude}` : null
  return (
    <main className="post-page">
      {preview && (
        <p className="preview-notice" role="status">
          Preview: the post as its editor now has it. Nothing here is saved or published.
        </p>
      )}
      <script
        type="application/ld+json"
        dangerouslySetInnerHTML={{
          __html: jsonLd(
            post,
            pictures.map((p) => largestImage(p).url),
          ),
        }}
      />
      <article className="post">
        <header className="post-header">
          <h1>{post.title}</h1>
          <p className="post-meta">
            <time dateTime={post.publishedAt.toISOString()}>
              {new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: timezone }).format(post.publishedAt)}
            </time>
            {post.trip && (
              <>
                {' · On the trip '}
                <a href={post.trip.url}>{post.trip.title}</a>
              </>
            )}
          </p>
          <TermLinks className="post-categories" label="Categories" terms={post.categories} title={(name) => `Map of the places in ${name}`} />
        </header>
        {lead && (
          <figure className="post-lead">
            <a href={largestImage(lead).url} data-photo={0}>
              {/* The column's width, or the photo's own when it is smaller: a small photo is never stretched. */}
              <Picture picture={lead} sizes={`(max-width: 48rem) min(100vw, ${lead.width}px), min(46rem, ${lead.width}px)`} priority />
            </a>
            {(lead.caption || lead.alt) && <figcaption>{lead.caption || lead.alt}</figcaption>}
          </figure>
        )}
        <div className="post-content" dangerouslySetInnerHTML={{ __html: withVideoCards(withContentPictures(content, contentPictures)) }} />
        <VideoCards />
        <TermLinks className="post-tags" label="Tags" terms={post.tags} title={(name) => `Map of the places tagged ${name}`} />
        <PhotoViewer photos={pictures} />
        {more.length > 0 && (
          <section className="post-gallery" aria-label="Photos">
            <ul>
              {more.map((picture, i) => (
                <li key={picture.src}>
                  <a href={largestImage(picture).url} data-photo={i + 1}>
                    <Picture picture={picture} sizes="(max-width: 30rem) 50vw, 15rem" />
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}
        {post.location && (post.location.address || point) && (
          <section className="post-place" aria-labelledby="post-place-heading">
            <h2 id="post-place-heading">Where</h2>
            {post.location.address && <address>{post.location.address}</address>}
            {point && (
              <>
                <div className="post-map-frame">
                  <PostMapLoader title={post.title} point={point} nearby={nearby} tiles={getConfig().mapTiles} />
                </div>
                <p className="post-meta post-coordinates">
                  <a href={osm!}>
                    {point.latitude.toFixed(5)}, {point.longitude.toFixed(5)}
                  </a>
                </p>
              </>
            )}
            {nearby.length > 0 && (
              <section className="post-nearby" aria-labelledby="post-nearby-heading">
                <h3 id="post-nearby-heading">Nearby</h3>
                <ol>
                  {nearby.map((place) => (
                    <li key={place.id}>
                      <a href={place.url}>{place.title}</a> <span className="post-meta">{distance(place)}</span>
                    </li>
                  ))}
                </ol>
              </section>
            )}
          </section>
        )}
        <Comments {...comments} timezone={timezone} />
      </article>
      {(post.previous || post.next) && (
        <nav className="post-nav" aria-label="Previous and next posts">
          {post.previous && (
            <a className="post-nav-previous" href={post.previous.url} rel="prev">
              <span className="post-meta">← Previous</span> {post.previous.title}
            </a>
          )}
          {post.next && (
            <a className="post-nav-next" href={post.next.url} rel="next">
              <span className="post-meta">Next →</span> {post.next.title}
            </a>
          )}
        </nav>
      )}
    </main>
  )
}

/** A post's categories or tags, each a link to the home map of its places (plain text when that map has none). */
function TermLinks({ className, label, terms, title }: { className: string; label: string; terms: PostTerm[]; title: (name: string) => string }) {
  if (terms.length === 0) return null
  return (
    <ul className={className} aria-label={label}>
      {terms.map((term) => (
        <li key={term.id}>
          {term.mapUrl ? (
            <a href={term.mapUrl} title={title(term.name)}>
              {term.name}
            </a>
          ) : (
            term.name
          )}
        </li>
      ))}
    </ul>
  )
}
