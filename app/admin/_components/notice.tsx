/** What the last action came to: a status when it went well, an alert when it did not. */
export type NoticeValue = { tone: 'ok' | 'error'; text: string }

export function Notice({ notice }: { notice: NoticeValue | undefined }) {
  if (!notice) return null
  return notice.tone === 'ok' ? (
    <p className="notice" role="status">
      {notice.text}
    </p>
  ) : (
    <p className="form-error" role="alert">
      {notice.text}
    </p>
  )
}
