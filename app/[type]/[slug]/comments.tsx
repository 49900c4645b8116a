import { getConfig } from '@/lib/config'
import { cleanContent } from '@/lib/content/html'
import type { CommentNode, PostComments } from '@/lib/places/comments'

// The comments a post brought from WordPress, read-only (lib/places/comments.ts): each cleaned again as it is shown,
// its author's link marked as WordPress marks it (ugc, nofollow).

/** A comment's time in the site's time zone, the zone named (`… 10:16 PM GMT+1`). */
const timeFormat = (timeZone: string) =>
  new Intl.DateTimeFormat('en', { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short', timeZone })

export function Comments({ comments, shown, total, timezone }: PostComments & { timezone: string }) {
  if (total === 0) return null
  return (
    <section className="post-comments" aria-labelledby="post-comments-heading">
      <h2 id="post-comments-heading">
        {total.toLocaleString('en')} {total === 1 ? 'comment' : 'comments'}
      </h2>
      <CommentList comments={comments} format={timeFormat(timezone)} />
      {shown < total && <p className="post-meta">The oldest {shown.toLocaleString('en')} are shown.</p>}
      <p className="post-meta">Comments are closed.</p>
    </section>
  )
}

function CommentList({ comments, format }: { comments: CommentNode[]; format: Intl.DateTimeFormat }) {
  const siteUrl = getConfig().siteUrl
  return (
    <ol className="comment-list">
      {comments.map((comment) => (
        <li key={comment.id}>
          <article className="comment" aria-label={`Comment by ${comment.authorName || 'Anonymous'}`}>
            <p className="post-meta">
              {/^https?:\/\//i.test(comment.authorUrl) ? (
                <a href={comment.authorUrl} rel="external nofollow ugc noopener">
                  {comment.authorName || comment.authorUrl}
                </a>
              ) : (
                <strong>{comment.authorName || 'Anonymous'}</strong>
              )}
              {' · '}
              <time dateTime={comment.createdAt.toISOString()}>{format.format(comment.createdAt)}</time>
            </p>
            {/* A commenter's links are theirs, not the site's: marked as WordPress marks them (its external links only). */}
            <div
              className="comment-content"
              dangerouslySetInnerHTML={{ __html: cleanContent(comment.content, siteUrl).replaceAll(' rel="noopener"', ' rel="nofollow ugc noopener"') }}
            />
          </article>
          {comment.replies.length > 0 && <CommentList comments={comment.replies} format={format} />}
        </li>
      ))}
    </ol>
  )
}
