import { contentText } from './html'

const SUMMARY_LENGTH = 200

/**
 * A post's excerpt, else the start of its content's text, on one line and cut at a word: what search results, link
 * previews and feeds show of it. Empty when the post has neither.
 */
export function summaryOf(post: { excerpt: string; content: string }): string {
  const text = (post.excerpt || contentText(post.content)).replace(/\s+/g, ' ').trim()
  if (text.length <= SUMMARY_LENGTH) return text
  const cut = text.lastIndexOf(' ', SUMMARY_LENGTH)
  return `${text.slice(0, cut > 0 ? cut : SUMMARY_LENGTH)}…`
}
