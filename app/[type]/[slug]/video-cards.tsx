'use client'

import { useEffect } from 'react'
import { playerUrl, PROVIDER_NAMES, videoOf } from '@/lib/content/embeds'

/**
 * Plays a video card of the post's content (lib/content/embeds.ts) when its button is pressed: the player replaces
 * the card, and takes the focus. Until then the page asks nothing of the video's site.
 */
export function VideoCards() {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const button = (event.target as Element).closest('.video-card-load')
      const card = button?.closest<HTMLElement>('.video-card')
      if (!card) return
      // The card's data checked again: only a known player's page is ever framed.
      const video = videoOf(card.dataset.provider, card.dataset.video)
      if (!video) return
      const frame = document.createElement('iframe')
      frame.src = playerUrl(video)
      frame.title = `Video from ${PROVIDER_NAMES[video.provider]}`
      frame.allow = 'autoplay; fullscreen; picture-in-picture; encrypted-media'
      frame.allowFullscreen = true
      frame.referrerPolicy = 'strict-origin-when-cross-origin'
      card.replaceChildren(frame)
      card.classList.add('playing')
      frame.focus()
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [])
  return null
}
