import type { Metadata } from 'next'
import { listPostTypes } from '@/lib/admin/posts'
import { requireSessionActor } from '@/lib/admin/session'
import { canCreatePosts } from '@/lib/auth/capabilities'
import { NewPostForm } from './_components/new-post-form'

export const metadata: Metadata = { title: 'New post' }

// GET /admin/posts/new – start a post: a title and a type make a draft, which opens in the editor
export default async function NewPostPage() {
  const actor = await requireSessionActor('/admin/posts/new')
  if (!canCreatePosts(actor)) {
    return (
      <>
        <h1>New post</h1>
        <p>Your role ({actor.role}) cannot write posts.</p>
      </>
    )
  }
  return (
    <>
      <h1>New post</h1>
      <p className="muted">The post is saved as a draft, then opens in the editor for its location, photos and the rest.</p>
      <NewPostForm types={await listPostTypes(actor)} />
    </>
  )
}
