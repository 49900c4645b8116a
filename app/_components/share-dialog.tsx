'use client'
import { useEffect, useRef, useState } from 'react'

// "Share": the link to the map as it is (view, filter, search) and the <iframe> code of /embed with the same
// parameters. A native modal <dialog>: the browser keeps the focus inside and closes it on Escape.

type Props = { params: URLSearchParams; onClose: () => void }

export function ShareDialog({ params, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null)
  const [copied, setCopied] = useState<string | null>(null)
  const origin = window.location.origin
  const link = `${origin}/?${params}`
  const code = `<iframe src="${origin}/embed?${params.toString().replaceAll('&', '&amp;')}" width="600" height="400" style="border:0" title="Map of places" loading="lazy" allowfullscreen></iframe>`

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    element.showModal()
    return () => element.close()
  }, [])

  const copy = async (what: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(what)
    } catch {
      setCopied(null) // no clipboard (an insecure origin, a refusal): the text is selectable in its field
    }
  }

  return (
    <dialog ref={dialog} className="share-dialog" aria-labelledby="share-heading" onClose={onClose}>
      <h2 id="share-heading">Share this map</h2>
      <label htmlFor="share-link">Link</label>
      <div className="share-row">
        <input id="share-link" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy('link', link)}>
          Copy link
        </button>
      </div>
      <label htmlFor="share-embed">Embed on your site</label>
      <div className="share-row">
        <textarea id="share-embed" readOnly rows={4} value={code} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy('code', code)}>
          Copy code
        </button>
      </div>
      <p className="post-meta" role="status">
        {copied === 'link' ? 'The link is copied.' : copied === 'code' ? 'The code is copied.' : ''}
      </p>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  )
}
