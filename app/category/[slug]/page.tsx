import { notFound, permanentRedirect } from 'next/navigation'
import { findPublicTerm } from '@/lib/places/feed'
import { filteredMapUrl } from '@/lib/places/post-page'

// GET /category/{slug} – WordPress's archive of a category, as a moved site's links have it: the home map of its places
export default async function CategoryArchive({ params }: PageProps<'/category/[slug]'>) {
  const term = await findPublicTerm('category', { rawSlug: (await params).slug })
  if (!term) notFound()
  permanentRedirect(filteredMapUrl('post', 'category', term.id))
}
