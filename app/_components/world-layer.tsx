'use client'
import { canvas, geoJSON, type GeoJSONOptions, type PathOptions } from 'leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'

// The map's own basemap: Natural Earth's countries at 1:110m (world-atlas, public domain) drawn on a canvas in a pane
// under the tiles, with the sea as the map's background colour (globals.css, .places-map). With MAP_TILE_URL=none it
// is the whole basemap and no third party is asked for anything; with tiles it shows until they load, and stays where
// they fail. The data is its own chunk, loaded by import() after the map's code: the browser caches it apart.

const PANE = 'world'
const NATURAL_EARTH = '<a href="https://www.naturalearthdata.com/">Natural Earth</a>'
const STYLE = { color: '#9aa58f', weight: 0.8, fillColor: '#eef0e6', fillOpacity: 1, interactive: false } as const

async function loadWorld() {
  const [{ default: topology }, { feature }] = await Promise.all([import('world-atlas/countries-110m.json'), import('topojson-client')])
  const countries = topology.objects.countries
  return feature(topology as unknown as Parameters<typeof feature>[0], countries as unknown as Parameters<typeof feature>[1])
}

export function WorldLayer() {
  const map = useMap()
  useEffect(() => {
    let cancelled = false
    if (!map.getPane(PANE)) map.createPane(PANE).style.zIndex = '150' // under the tiles (200)
    let layer: ReturnType<typeof geoJSON> | undefined
    loadWorld()
      .then((world) => {
        if (cancelled) return
        // GeoJSON passes its options on to each polygon: the renderer too, though its type does not say so.
        const options: GeoJSONOptions & PathOptions = { pane: PANE, renderer: canvas({ pane: PANE }), style: STYLE, attribution: NATURAL_EARTH }
        layer = geoJSON(world, options).addTo(map)
        map.getContainer().dataset.world = 'ready'
      })
      .catch((error: unknown) => console.error(error))
    return () => {
      cancelled = true
      layer?.remove()
    }
  }, [map])
  return null
}
