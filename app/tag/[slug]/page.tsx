import { notFound, permanentRedirect } from 'next/navigation'
import { findPublicTerm } from '@/lib/places/feed'
import { filteredMapUrl } from '@/lib/places/post-page'

// GET /tag/{slug} – WordPress's archive of a tag, as a moved site's links have it: the home map of its places
export default async function TagArchive({ params }: PageProps<'/tag/[slug]'>) {
  const term = await findPublicTerm('tag', { rawSlug: (await params).slug })
  if (!term) notFound()
  permanentRedirect(filteredMapUrl('post', 'tag', term.id))
}
