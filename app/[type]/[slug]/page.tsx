import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { findPublicPost } from '@/lib/places/query'

type Props = PageProps<'/[type]/[slug]'>

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    notFound()
  }
}

async function getPostOrNotFound({ params }: Props) {
  const { type, slug } = await params
  const post = await findPublicPost(decoded(type), decoded(slug))
  if (!post) notFound()
  return post
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  return { title: (await getPostOrNotFound(props)).title }
}

// A published post's public page: the target of properties.url. React escapes every text it renders.
export default async function PostPage(props: Props) {
  const post = await getPostOrNotFound(props)
  const point = post.location?.point
  const osm = point ? `https://www.openstreetmap.org/?mlat=${point.latitude}&mlon=${point.longitude}#map=15/${point.latitude}/${point.longitude}` : null
  return (
    <main>
      <article>
        <h1>{post.title}</h1>
        <p className="post-meta">
          <time dateTime={post.publishedAt.toISOString()}>{post.publishedAt.toISOString().slice(0, 10)}</time>
          {post.categories.length > 0 && <> · {post.categories.join(', ')}</>}
        </p>
        {post.location?.address && <address>{post.location.address}</address>}
        {point && osm && (
          <p className="post-meta">
            <a href={osm}>
              {point.latitude.toFixed(5)}, {point.longitude.toFixed(5)}
            </a>
          </p>
        )}
        {post.content.split(/\n\s*\n/).map((paragraph, i) => (
          <p key={i}>{paragraph}</p>
        ))}
      </article>
    </main>
  )
}
