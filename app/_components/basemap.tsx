'use client'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { TileLayer, useMap } from 'react-leaflet'
import { TownLabelsLayer } from './town-labels'
import { WorldLayer } from './world-layer'

export type TileSource = { url: string; attribution: string }

/**
 * Every map's basemap: the site's own world layer, the configured tile server's tiles over it, and where the tiles are
 * not there (MAP_TILE_URL=none, or none of them loaded) the world layer's finer outlines and the site's own town names.
 */
export function Basemap({ tiles, maxZoom, onLoad, onError }: { tiles: TileSource | null; maxZoom?: number; onLoad?: () => void; onError?: () => void }) {
  const [state, setState] = useState({ loaded: false, failed: false })
  const loaded = useCallback(() => {
    setState((s) => (s.loaded ? s : { ...s, loaded: true }))
    onLoad?.()
  }, [onLoad])
  const failed = useCallback(() => {
    setState((s) => (s.failed ? s : { ...s, failed: true }))
    onError?.()
  }, [onError])
  const uncovered = !tiles || (state.failed && !state.loaded)
  return (
    <>
      <WorldLayer detailed={uncovered} />
      {tiles && <BasemapTiles tiles={tiles} maxZoom={maxZoom} onLoad={loaded} onError={failed} />}
      {uncovered && <TownLabelsLayer />}
    </>
  )
}

/**
 * The configured tile server's layer, credited once one of its tiles is drawn: when they all fail (no network, a
 * server that refuses) the map shows the world layer alone, and its attribution names only that.
 */
function BasemapTiles({ tiles, maxZoom, onLoad, onError }: { tiles: TileSource; maxZoom?: number; onLoad: () => void; onError: () => void }) {
  const map = useMap()
  const credited = useRef(false)
  const handlers = useMemo(
    () => ({
      tileload: () => {
        if (!credited.current) map.attributionControl?.addAttribution(tiles.attribution)
        credited.current = true
        onLoad()
      },
      tileerror: onError,
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
