'use server'

import { redirect } from 'next/navigation'
import { z } from 'zod'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { attachmentTextSchema, attachmentTitleSchema, idSchema, newPostSchema } from '@/lib/admin/forms'
import { parseOrThrow } from '@/lib/http/params'
import {
  createDraft,
  deletePost,
  parsePostForm,
  restorePost as restorePostIn,
  trashPost as trashPostIn,
  updatePost,
  type PostEditorContext,
} from '@/lib/admin/posts'
import { savePreview } from '@/lib/admin/preview'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { emptyTrash, type EmptiedTrash } from '@/lib/admin/trash'
import { roundCoordinate } from '@/lib/geo/precision'
import { ApiError } from '@/lib/http/errors'
import { getAttachmentGps, type AttachmentGps } from '@/lib/media/attachment-gps'
import { deleteAttachment, describeAttachment, listPostAttachments, renameAttachment, reorderAttachments } from '@/lib/media/attachments'
import type { AttachmentDto } from '@/lib/media/storage'
import { postTypeSchema } from '@/lib/places/post-fields'

// The post editor's server actions: parse what the browser sent with the forms' own schemas, ask lib/ (which checks
// the signed-in user's rights), answer. Next.js refuses actions posted from other origins.

export type NewPostState = ActionResult<null> | null

// "New post": a draft owned by the signed-in user, then its editor
export async function createPostAction(_previous: NewPostState, form: FormData): Promise<NewPostState> {
  const result = await runAction('createPost', async () => {
    const input = parseOrThrow(newPostSchema, { title: form.get('title'), type: form.get('type') })
    return createDraft(await getSessionActorOrThrow(), input)
  })
  if (!result.ok) return result
  redirect(`/admin/posts/${result.data}`)
}

export async function savePostAction(id: number, values: unknown): Promise<ActionResult<PostEditorContext>> {
  return runAction('savePost', async () => updatePost(await getSessionActorOrThrow(), parseOrThrow(idSchema, id), await parsePostForm(values)))
}

// Preview: the form as it is now, kept apart from the post (lib/admin/preview.ts); answers the URL that shows it.
export async function previewPostAction(id: number, values: unknown): Promise<ActionResult<string>> {
  return runAction('previewPost', async () => savePreview(await getSessionActorOrThrow(), parseOrThrow(idSchema, id), await parsePostForm(values)))
}

// "Move to Trash": the editor then opens /admin?trashed=ID, whose notice offers Undo (restorePost).
export async function trashPost(id: number): Promise<ActionResult<null>> {
  return runAction('trashPost', async () => {
    await trashPostIn(await getSessionActorOrThrow(), parseOrThrow(idSchema, id))
    return null
  })
}

export async function restorePost(id: number): Promise<ActionResult<null>> {
  return runAction('restorePost', async () => {
    await restorePostIn(await getSessionActorOrThrow(), parseOrThrow(idSchema, id))
    return null
  })
}

// Only a post in the Trash (lib/admin/posts.ts refuses others), from the Trash view.
export async function deletePostPermanently(id: number): Promise<ActionResult<null>> {
  return runAction('deletePostPermanently', async () => {
    await deletePost(await getSessionActorOrThrow(), parseOrThrow(idSchema, id))
    return null
  })
}

// "Empty Trash" in the Trash view: of the list's type, or of every type; only what the user may delete goes.
export async function emptyTrashAction(type: unknown): Promise<ActionResult<EmptiedTrash>> {
  return runAction('emptyTrash', async () =>
    emptyTrash(await getSessionActorOrThrow(), parseOrThrow(z.object({ type: postTypeSchema.nullable() }), { type }).type),
  )
}

// The Content editor's Photo button lists the post's photos as they are now: some may have come since the page loaded.
export async function listMediaAction(postId: number): Promise<ActionResult<AttachmentDto[]>> {
  return runAction('listMedia', async () => listPostAttachments(await getSessionActorOrThrow(), parseOrThrow(idSchema, postId)))
}

export async function reorderMediaAction(postId: number, orderedIds: unknown): Promise<ActionResult<AttachmentDto[]>> {
  return runAction('reorderMedia', async () =>
    reorderAttachments(await getSessionActorOrThrow(), parseOrThrow(idSchema, postId), parseOrThrow(z.array(idSchema).max(10_000), orderedIds)),
  )
}

export async function renameMediaAction(attachmentId: number, title: unknown): Promise<ActionResult<AttachmentDto>> {
  return runAction('renameMedia', async () =>
    renameAttachment(
      await getSessionActorOrThrow(),
      parseOrThrow(idSchema, attachmentId),
      parseOrThrow(z.object({ title: attachmentTitleSchema }), { title }).title,
    ),
  )
}

export async function describeMediaAction(attachmentId: number, text: unknown): Promise<ActionResult<AttachmentDto>> {
  return runAction('describeMedia', async () =>
    describeAttachment(await getSessionActorOrThrow(), parseOrThrow(idSchema, attachmentId), parseOrThrow(attachmentTextSchema, text)),
  )
}

export async function removeMediaAction(attachmentId: number): Promise<ActionResult<null>> {
  return runAction('removeMedia', async () => {
    await deleteAttachment(await getSessionActorOrThrow(), parseOrThrow(idSchema, attachmentId))
    return null
  })
}

/** What "Import location from media" found: the first photo's GPS, or none, and how many photos were looked at. */
export type MediaLocation = { found: AttachmentGps } | { found: null; imagesChecked: number }

export async function importLocationFromMediaAction(postId: number): Promise<ActionResult<MediaLocation>> {
  return runAction('importLocationFromMedia', async (): Promise<MediaLocation> => {
    try {
      const found = await getAttachmentGps(await getSessionActorOrThrow(), parseOrThrow(idSchema, postId))
      // At the admin's one precision (lib/geo/precision.ts), as the fields and the map show it.
      return { found: { ...found, latitude: roundCoordinate(found.latitude), longitude: roundCoordinate(found.longitude) } }
    } catch (error) {
      // No photo with GPS is an answer, not a failure: the editor says how many it looked at.
      if (error instanceof ApiError && error.code === 'rest_no_exif_gps') return { found: null, imagesChecked: Number(error.data.images_checked) }
      throw error
    }
  })
}
