'use client'
import dynamic from 'next/dynamic'
import { useEffect, useRef, useState } from 'react'
import type { PostMapProps } from './post-map'

// Leaflet touches `window` when it loads: the map is rendered in the browser only.
const PostMap = dynamic(() => import('./post-map'), { ssr: false, loading: Waiting })

function Waiting() {
  return (
    <p className="post-map-loading" role="status">
      Loading the map…
    </p>
  )
}

/**
 * The post's map, loaded when it comes near the screen: on a phone it sits under the text and photos, and Leaflet
 * would otherwise take the page's thread while the visitor reads (BENCHMARKS.md, "Pages").
 */
export function PostMapLoader(props: PostMapProps) {
  const frame = useRef<HTMLDivElement>(null)
  const [isNear, setNear] = useState(false)
  useEffect(() => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return
        setNear(true)
        observer.disconnect()
      },
      { rootMargin: '400px 0px' },
    )
    observer.observe(frame.current!)
    return () => observer.disconnect()
  }, [])
  return (
    <div ref={frame} className="post-map-lazy">
      {isNear ? <PostMap {...props} /> : <Waiting />}
    </div>
  )
}
