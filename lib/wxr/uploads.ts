// A WordPress post's links and images to its site's uploads (wp-content/uploads: the original, the -scaled copy and
// every -WxH size) point, once imported, to the attachment imported here (docs/content.md). The post is written before
// its photos are stored, so its upload addresses are first marked (under MARK, a path nothing else uses), then
// resolved once every photo is in place: to the photo's file here, or back to the old site when it was not imported.

const MARK = '/uploads/wordpress-import/'

/** The start of an address on the exported site's uploads, http or https, with or without www; null for no address. */
export function oldUploadsPattern(siteUrl: string): RegExp | null {
  let url: URL
  try {
    url = new URL(siteUrl)
  } catch {
    return null
  }
  const host = url.host.replace(/^www\./, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const path = url.pathname.replace(/\/+$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  // A multisite's uploads are under sites/N/.
  return new RegExp(`^(?:https?:)?//(?:www\\.)?${host}${path}/wp-content/uploads/(?:sites/\\d+/)?`, 'i')
}

const ADDRESS = /(\s(?:src|href)\s*=\s*)(["'])(.*?)\2/gi

/** `html` with every src and href on the old site's uploads marked; and whether there was one. */
export function markOldUploads(html: string, uploads: RegExp): { html: string; marked: boolean } {
  let marked = false
  const result = html.replace(ADDRESS, (whole, before: string, quote: string, address: string) => {
    const match = uploads.exec(address)
    if (!match) return whole
    marked = true
    return `${before}${quote}${MARK}${address.slice(match[0].length)}${quote}`
  })
  return { html: result, marked }
}

/** What an upload is known by: its path in the uploads folder without WordPress's size (-1024x768), -scaled or -rotated. */
export function uploadKey(relative: string): string {
  return relative
    .replace(/[?#].*$/, '')
    .replace(/-\d+x\d+(?=\.[a-z0-9]+$)/i, '')
    .replace(/-(?:scaled|rotated)(?=\.[a-z0-9]+$)/i, '')
    .toLowerCase()
}

function decoded(text: string): string {
  try {
    return decodeURI(text)
  } catch {
    return text
  }
}

/**
 * `html` with each marked upload at the address `here(key)` gives (its attachment's file), or, for one not imported,
 * back at `oldUploads` (the old site's uploads address, ending in /): cleaned again, an image there becomes a link.
 */
export function resolveMarkedUploads(html: string, here: (key: string) => string | undefined, oldUploads: string): string {
  return html.replace(ADDRESS, (whole, before: string, quote: string, address: string) => {
    if (!address.startsWith(MARK)) return whole
    const relative = address.slice(MARK.length)
    return `${before}${quote}${here(uploadKey(decoded(relative))) ?? `${oldUploads}${relative}`}${quote}`
  })
}
