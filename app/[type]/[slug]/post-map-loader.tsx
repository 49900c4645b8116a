'use client'
import dynamic from 'next/dynamic'
import type { PostMapProps } from './post-map'

// Leaflet touches `window` when it loads: the map is rendered in the browser only.
const PostMap = dynamic(() => import('./post-map'), {
  ssr: false,
  loading: () => (
    <p className="post-map-loading" role="status">
      Loading the map…
    </p>
  ),
})

export function PostMapLoader(props: PostMapProps) {
  return <PostMap {...props} />
}
