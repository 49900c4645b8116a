import 'server-only'
import { ApiError, tryAgainLater } from '../http/errors'

// An upload holds a request body, a file in incoming/, libvips's threads while its sizes are made and, for a HEIC,
// one of the few HEIC workers (lib/media/heic-pool.ts): one user sending many at once would hold them all, and
// everyone else's uploads would wait. A user runs at most UPLOADS_PER_USER uploads at once; one more is refused at
// once, 429 with Retry-After, nothing of it stored. Counted by user id (an application password and a session
// are the same user), in memory: each app instance counts its own.

export const UPLOADS_PER_USER = 4
// About the time an upload of a phone photo takes: by then one of the user's uploads has most likely ended.
const RETRY_AFTER_SECONDS = 5

const running = new Map<number, number>()

/** Runs one upload of a user's; throws a 429 ApiError, before it starts, when the user runs UPLOADS_PER_USER already. */
export async function runUpload<T>(userId: number, upload: () => Promise<T>): Promise<T> {
  const held = running.get(userId) ?? 0
  if (held >= UPLOADS_PER_USER) throw tooManyUploads()
  running.set(userId, held + 1)
  try {
    return await upload()
  } finally {
    // However it ended: stored, refused, failed, or the client gone (its body stream fails).
    const left = (running.get(userId) ?? 1) - 1
    if (left > 0) running.set(userId, left)
    else running.delete(userId)
  }
}

function tooManyUploads(): ApiError {
  return tryAgainLater('too_many_uploads', `Too many uploads at once: at most ${UPLOADS_PER_USER} per user.`, RETRY_AFTER_SECONDS)
}
