'use client'
import { useEffect, useMemo, useRef } from 'react'
import { TileLayer, useMap } from 'react-leaflet'

export type TileSource = { url: string; attribution: string }

/**
 * The configured tile server's layer, credited once one of its tiles is drawn: when they all fail (no network, a
 * server that refuses) the map shows the world layer alone, and its attribution names only that.
 */
export function BasemapTiles({ tiles, maxZoom, onLoad, onError }: { tiles: TileSource; maxZoom?: number; onLoad?: () => void; onError?: () => void }) {
  const map = useMap()
  const credited = useRef(false)
  const handlers = useMemo(
    () => ({
      tileload: () => {
        if (!credited.current) map.attributionControl?.addAttribution(tiles.attribution)
        credited.current = true
        onLoad?.()
      },
      tileerror: () => onError?.(),
    }),
    [map, tiles.attribution, onLoad, onError],
  )
  useEffect(
    () => () => {
      if (credited.current) map.attributionControl?.removeAttribution(tiles.attribution)
      credited.current = false
    },
    [map, tiles.attribution],
  )
  // An option given as undefined replaces Leaflet's default (maxZoom 18): its tiles would be infinitely many.
  return <TileLayer url={tiles.url} {...(maxZoom === undefined ? {} : { maxZoom })} eventHandlers={handlers} />
}
