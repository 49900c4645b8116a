'use client'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { TileLayer, useMap } from 'react-leaflet'
import type { LatLngBounds } from 'leaflet'
import { tileCredit } from './tile-credit'
import { TownLabelsLayer } from './town-labels'
import { VectorTiles } from './vector-tiles'
import { WorldLayer } from './world-layer'

export type TileSource = { url: string; attribution: string; vector?: boolean }

/**
 * Every map's basemap: the site's own world layer; over it the configured tiles, raster from a tile server or the
 * site's own vector archive (MAP_PMTILES); and the site's own town names and finer outlines wherever the tiles do not
 * cover the map: everywhere with MAP_TILE_URL=none or raster tiles that all fail, beyond its bounds for an archive.
 */
export function Basemap({ tiles, maxZoom, onLoad, onError }: { tiles: TileSource | null; maxZoom?: number; onLoad?: () => void; onError?: () => void }) {
  const [state, setState] = useState({ loaded: false, failed: false })
  /** the vector archive's bounds: undefined until its header is read, null when it cannot be */
  const [region, setRegion] = useState<LatLngBounds | null>()
  const loaded = useCallback(() => {
    setState((s) => (s.loaded ? s : { ...s, loaded: true }))
    onLoad?.()
  }, [onLoad])
  const failed = useCallback(() => {
    setState((s) => (s.failed ? s : { ...s, failed: true }))
    onError?.()
  }, [onError])
  const uncovered = !tiles || tiles.vector || (state.failed && !state.loaded)
  return (
    <>
      <WorldLayer detailed={uncovered} />
      {tiles?.vector && <VectorTiles url={tiles.url} attribution={tiles.attribution} maxZoom={maxZoom} onLoad={loaded} onError={failed} onRegion={setRegion} />}
      {tiles && !tiles.vector && <BasemapTiles tiles={tiles} maxZoom={maxZoom} onLoad={loaded} onError={failed} />}
      {uncovered && (!tiles?.vector || region !== undefined) && <TownLabelsLayer except={region ?? undefined} />}
    </>
  )
}

/** The configured tile server's layer, credited once one of its tiles is drawn (tileCredit). */
function BasemapTiles({ tiles, maxZoom, onLoad, onError }: { tiles: TileSource; maxZoom?: number; onLoad: () => void; onError: () => void }) {
  const map = useMap()
  const credit = useMemo(() => tileCredit(map, tiles.attribution), [map, tiles.attribution])
  const handlers = useMemo(
    () => ({
      tileload: () => {
        credit.drawn()
        onLoad()
      },
      tileerror: onError,
    }),
    [credit, onLoad, onError],
  )
  useEffect(() => () => credit.dispose(), [credit])
  // An option given as undefined replaces Leaflet's default (maxZoom 18): its tiles would be infinitely many.
  return <TileLayer url={tiles.url} {...(maxZoom === undefined ? {} : { maxZoom })} eventHandlers={handlers} />
}
