// Videos in content (docs/content.md, "Embeds"): a YouTube or Vimeo address alone on its line shows as a card that
// asks nothing of the video's site until the visitor loads it; then the site's privacy-minded player. Pure: the post
// page's script (app/[type]/[slug]/embed-cards.tsx) builds the player from the same rules.

export type Video = { provider: 'youtube' | 'vimeo'; id: string }

export const PROVIDER_NAMES: Record<Video['provider'], string> = { youtube: 'YouTube', vimeo: 'Vimeo' }

/** The players' origins: the only frames a page may hold (proxy.ts, frame-src). */
export const PLAYER_ORIGINS = ['https://www.youtube-nocookie.com', 'https://player.vimeo.com']

const IDS: Record<Video['provider'], RegExp> = { youtube: /^[A-Za-z0-9_-]{11}$/, vimeo: /^\d{1,12}$/ }

/** The video of `provider` with this `id`, if it is one's id: nothing else reaches a player's address. */
export function videoOf(provider: string | undefined, id: string | null | undefined): Video | null {
  if (provider !== 'youtube' && provider !== 'vimeo') return null
  return id && IDS[provider].test(id) ? { provider, id } : null
}

/** The video at `address` (youtube.com/watch?v=, youtu.be/, /shorts/, /embed/; vimeo.com/ID), or null. */
export function videoAt(address: string): Video | null {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  const host = url.hostname.replace(/^(www|m)\./, '')
  const [first, second] = url.pathname.split('/').filter(Boolean)
  let id: string | null | undefined = null
  if (host === 'youtube.com' || host === 'youtube-nocookie.com')
    id = first === 'watch' ? url.searchParams.get('v') : first === 'shorts' || first === 'embed' ? second : null
  else if (host === 'youtu.be') id = first
  else if (host === 'vimeo.com' || host === 'player.vimeo.com') id = first === 'video' ? second : first
  else return null
  return videoOf(host === 'vimeo.com' || host === 'player.vimeo.com' ? 'vimeo' : 'youtube', id)
}

/** Where the video plays once asked for: YouTube's no-cookie player, Vimeo's with Do Not Track. */
export function playerUrl({ provider, id }: Video): string {
  return provider === 'youtube' ? `https://www.youtube-nocookie.com/embed/${id}?autoplay=1` : `https://player.vimeo.com/video/${id}?dnt=1&autoplay=1`
}

/** The video's own page, for those who would rather watch it there. */
export function watchUrl({ provider, id }: Video): string {
  return provider === 'youtube' ? `https://www.youtube.com/watch?v=${id}` : `https://vimeo.com/${id}`
}

// A paragraph of cleaned content holding one address alone: as a link showing itself, or as text.
const LONE_ADDRESS = /<p>\s*(?:<a href="([^"<>]+)"[^>]*>([^<]*)<\/a>|(https?:\/\/[^\s<"]+))\s*<\/p>/g

const unescape = (text: string) => text.replace(/&amp;/g, '&')

/** Cleaned content (lib/content/html.ts) with each video address alone on its line made a click-to-load card. */
export function withVideoCards(html: string): string {
  return html.replace(LONE_ADDRESS, (paragraph, href: string | undefined, text: string | undefined, bare: string | undefined) => {
    const address = unescape(href ?? bare!)
    if (href !== undefined && unescape(text!.trim()) !== address) return paragraph
    const video = videoAt(address)
    if (!video) return paragraph
    const name = PROVIDER_NAMES[video.provider]
    return (
      `<figure class="video-card" data-provider="${video.provider}" data-video="${video.id}">` +
      `<button type="button" class="video-card-load">Load video from ${name}</button>` +
      `<figcaption>Loading it lets ${name} know of your visit. Or <a href="${watchUrl(video)}" rel="noopener">watch it on ${name}</a>.</figcaption>` +
      `</figure>`
    )
  })
}
