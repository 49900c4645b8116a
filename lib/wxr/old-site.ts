// A WordPress post's addresses on its old site, rewritten as it is imported (docs/content.md): its links and images
// to the site's uploads (wp-content/uploads: the original, the -scaled copy and every -WxH size) point to the photo
// imported here, and its links to the site's posts (?p=ID, date permalinks, plain slugs) to their pages here. A post
// is written before its photos are stored and before the posts after it are read, so its addresses are first marked
// (under paths nothing else uses), then resolved once everything is in place; what was not imported points back to
// the old site. A Places site's own export (lib/wxr/export.ts) has its photos at /uploads/ rather than wp-content/uploads/.

const UPLOAD_MARK = '/uploads/wordpress-import/'
const PLACES_UPLOAD_MARK = '/uploads/places-import/'
const LINK_MARK = '/wordpress-import/'

/** The exported site, as addresses start on it: http or https, with or without www. */
export type OldSite = { uploads: RegExp; pages: RegExp; url: string }

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The exported site from its address (<wp:base_blog_url>); null when it is not one. */
export function oldSite(siteUrl: string): OldSite | null {
  let url: URL
  try {
    url = new URL(siteUrl)
  } catch {
    return null
  }
  const base = `^(?:https?:)?//(?:www\\.)?${escaped(url.host.replace(/^www\./, ''))}${escaped(url.pathname.replace(/\/+$/, ''))}`
  return {
    // A multisite's uploads are under sites/N/; a Places site's photos (the group) under uploads/, beside their sizes.
    uploads: new RegExp(`${base}/(?:wp-content/uploads/(?:sites/\\d+/)?|(uploads/)(?!renditions/))`, 'i'),
    // Its pages: anything but WordPress's own folders, feeds and API.
    pages: new RegExp(`${base}/(?!wp-(?:content|admin|includes|json|login)|feed/|xmlrpc)`, 'i'),
    url: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
  }
}

const ADDRESS = /(\s(src|href)\s*=\s*)(["'])(.*?)\3/gi

/** `html` with every src and href on the old site's uploads, and every link to its pages, marked; and whether any was. */
export function markOldAddresses(html: string, site: OldSite): { html: string; marked: boolean } {
  let marked = false
  const result = html.replace(ADDRESS, (whole, before: string, name: string, quote: string, address: string) => {
    const upload = site.uploads.exec(address)
    const page = upload || name.toLowerCase() !== 'href' ? null : site.pages.exec(address)
    if (!upload && !page) return whole
    marked = true
    const mark = upload ? (upload[1] ? PLACES_UPLOAD_MARK : UPLOAD_MARK) : LINK_MARK
    return `${before}${quote}${mark}${address.slice((upload ?? page)![0].length)}${quote}`
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

/** What a link to a post names: its WordPress id (`?p=`, `?page_id=`), else its slug (the path's last part). */
export type PostReference = { id: number } | { slug: string }

/** The post a page's address on the old site (after the site's own address) names, if any. */
export function postReference(rest: string): PostReference | null {
  const [path = '', query = ''] = rest.split('#', 1)[0]!.split('?', 2)
  const id = /(?:^|&)(?:p|page_id)=(\d+)(?:&|$)/.exec(query)?.[1]
  if (id) return { id: Number(id) }
  const slug = decoded(path.replace(/\/+$/, '').split('/').at(-1) ?? '')
  // A date archive (2020/05/) or the home page names no post.
  return slug && !/^\d+$/.test(slug) ? { slug: slug.toLowerCase() } : null
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * `html` with each marked address resolved: an upload to `upload(key)` (its photo's address here), a link to
 * `post(reference)` (the post's page here, its #fragment kept); what neither knows back to the old site.
 */
export function resolveMarkedAddresses(
  html: string,
  here: { upload: (key: string) => string | undefined; post: (reference: PostReference) => string | undefined },
  site: OldSite,
): string {
  return html.replace(ADDRESS, (whole, before: string, _name: string, quote: string, address: string) => {
    for (const [mark, folder] of [
      [UPLOAD_MARK, 'wp-content/uploads'],
      [PLACES_UPLOAD_MARK, 'uploads'],
    ] as const) {
      if (!address.startsWith(mark)) continue
      const relative = address.slice(mark.length)
      return `${before}${quote}${here.upload(uploadKey(decoded(relative))) ?? `${site.url}/${folder}/${relative}`}${quote}`
    }
    if (address.startsWith(LINK_MARK)) {
      const rest = address.slice(LINK_MARK.length)
      const reference = postReference(rest)
      const found = reference && here.post(reference)
      const fragment = rest.includes('#') ? rest.slice(rest.indexOf('#')) : ''
      return `${before}${quote}${found ? `${found}${fragment}` : `${site.url}/${rest}`}${quote}`
    }
    return whole
  })
}
