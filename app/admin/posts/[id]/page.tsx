import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { canManageTrips, canUploadFiles } from '@/lib/auth/capabilities'
import { findEditablePost, listCategoryOptions, listPostTypes } from '@/lib/admin/posts'
import { requireSessionActor } from '@/lib/admin/session'
import { getConfig } from '@/lib/config'
import { listPostAttachments } from '@/lib/media/attachments'
import { listTagSuggestions } from '@/lib/places/tags'
import { listTripOptions } from '@/lib/trips/manage'
import { parsePostId } from '@/lib/places/schemas'
import { MediaManager } from './_components/media-manager'
import { PostEditor } from './_components/post-editor'

export const metadata: Metadata = { title: 'Edit post' }

// GET /admin/posts/{id} – the editor; a post that does not exist and one the user may not edit are both "not found"
export default async function EditPostPage({ params }: PageProps<'/admin/posts/[id]'>) {
  const { id: rawId } = await params
  const actor = await requireSessionActor(`/admin/posts/${encodeURIComponent(rawId)}`)
  const id = parsePostId(rawId)
  const editor = id === null ? null : await findEditablePost(actor, id)
  if (!editor) notFound()
  const [categories, tagSuggestions, types, attachments, trips] = await Promise.all([
    listCategoryOptions(actor),
    listTagSuggestions(),
    listPostTypes(actor),
    listPostAttachments(actor, editor.post.id),
    listTripOptions(actor, editor.post.tripId),
  ])
  return (
    <>
      <div className="admin-heading">
        <h1>Edit post</h1>
        <a href="/admin">← All posts</a>
      </div>
      <PostEditor
        {...editor}
        userId={actor.id}
        categories={categories}
        tagSuggestions={tagSuggestions}
        types={types}
        trips={trips}
        canPlacePhotos={canManageTrips(actor)}
        tiles={getConfig().mapTiles}
      />
      <MediaManager postId={editor.post.id} initial={attachments} canUpload={canUploadFiles(actor)} />
    </>
  )
}
