'use client'
import { Layer, Util, type LatLngBounds, type LeafletEventHandlerFn, type Map as LeafletMap } from 'leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'
import { DOT, LABEL_TILE_PX, labelTilesAt, MAX_LABEL_ZOOM, MIN_LABEL_ZOOM, TOWN_LABELS_PATH, type TownLabel } from '@/lib/geo/label-tiles'

// The town names of the map's own basemap, where no tile server draws them: the names of the view's tiles
// (lib/geo/labels.ts decides which, and on which side of the town's dot, never overlapping), drawn as text in a pane
// over the world layer. Text rather than canvas so that the browser's fonts draw every script; hidden from screen
// readers, which have the list.

const PANE = 'town-labels'
/** Names whose point is just outside the view still reach into it. */
const MARGIN_PX = 96
const GEONAMES = '<a href="https://www.geonames.org/">GeoNames</a>'
/** Where a name goes for each side of its dot: the offset of its anchor point, and how the name hangs from it. */
const PLACES: Record<TownLabel[4], [number, number, string]> = {
  right: [DOT, 0, 'translateY(-50%)'],
  left: [-DOT, 0, 'translate(-100%, -50%)'],
  above: [0, -DOT, 'translate(-50%, -100%)'],
  below: [0, DOT, 'translateX(-50%)'],
}

class TownLabels extends Layer {
  private container = document.createElement('div')
  /** Each tile's names, asked once for the page's life (the browser keeps them for good too). */
  private tiles = new Map<string, Promise<TownLabel[]>>()
  /** The drawing a late answer belongs to: only the latest view's is drawn. */
  private drawing = 0

  /** Where another layer names the towns (a vector archive's region): no name there. */
  constructor(private readonly except: LatLngBounds | undefined) {
    super()
    Util.setOptions(this, { pane: PANE, attribution: GEONAMES }) // L.Layer's constructor takes no options
    this.container.className = 'town-labels'
  }

  override onAdd(map: LeafletMap): this {
    this.getPane()!.appendChild(this.container)
    void this.draw(map)
    return this
  }

  override onRemove(): this {
    this.drawing++
    this.container.remove()
    return this
  }

  override getEvents(): Record<string, LeafletEventHandlerFn> {
    return {
      // Drawn for a zoom and a pixel origin, the names would drift while the map scales, or sit where they were when a
      // jump resets the origin: hidden until the next view is drawn.
      zoomstart: () => {
        this.container.hidden = true
      },
      viewreset: () => {
        this.container.hidden = true
      },
      moveend: () => void this.draw(this._map),
    }
  }

  private names(zoom: number, x: number, y: number): Promise<TownLabel[]> {
    const key = `${zoom}/${x}/${y}`
    let names = this.tiles.get(key)
    if (!names) {
      // After the places: on a server just started, the first names wait for the gazetteer (half a second).
      names = fetch(`${TOWN_LABELS_PATH}/${key}`, { priority: 'low' })
        .then((response) => {
          if (!response.ok) throw new Error(`${response.status}`)
          return response.json() as Promise<TownLabel[]>
        })
        .catch(() => {
          this.tiles.delete(key) // asked again with the next view
          return []
        })
      this.tiles.set(key, names)
    }
    return names
  }

  private async draw(map: LeafletMap): Promise<void> {
    const drawing = ++this.drawing
    const mapZoom = map.getZoom()
    if (mapZoom < MIN_LABEL_ZOOM) {
      this.container.replaceChildren()
      return
    }
    const zoom = Math.min(Math.floor(mapZoom), MAX_LABEL_ZOOM)
    const tiles = labelTilesAt(zoom)
    const { min, max } = map.getPixelBounds()
    const scale = 2 ** (zoom - mapZoom) / LABEL_TILE_PX
    const [west, east] = [Math.floor((min!.x - MARGIN_PX) * scale), Math.floor((max!.x + MARGIN_PX) * scale)]
    const [north, south] = [Math.max(0, Math.floor((min!.y - MARGIN_PX) * scale)), Math.min(tiles - 1, Math.floor((max!.y + MARGIN_PX) * scale))]
    const wanted: Promise<[shift: number, names: TownLabel[]]>[] = []
    for (let x = west; x <= east; x++) {
      const wrapped = ((x % tiles) + tiles) % tiles
      // A tile of the world's copy east or west of the view's: its names moved a world's width.
      const shift = ((x - wrapped) / tiles) * 360
      for (let y = north; y <= south; y++) wanted.push(this.names(zoom, wrapped, y).then((names) => [shift, names]))
    }
    const answers = await Promise.all(wanted)
    if (drawing !== this.drawing) return
    const drawn = document.createDocumentFragment()
    const origin = map.getPixelOrigin()
    for (const [shift, names] of answers) {
      for (const [name, longitude, latitude, px, anchor] of names) {
        if (this.except?.contains([latitude, longitude])) continue
        // A tile of names reaches well past the view: only the names in it (and its margin) are drawn.
        const point = map.project([latitude, longitude + shift], mapZoom)
        if (point.x < min!.x - MARGIN_PX || point.x > max!.x + MARGIN_PX || point.y < min!.y - MARGIN_PX || point.y > max!.y + MARGIN_PX) continue
        const [x, y] = [point.x - origin.x, point.y - origin.y]
        const dot = document.createElement('i')
        dot.style.transform = `translate(${x}px, ${y}px)`
        const label = document.createElement('span')
        label.textContent = name
        label.style.fontSize = `${px}px`
        const [dx, dy, along] = PLACES[anchor]
        label.style.transform = `translate(${x + dx}px, ${y + dy}px) ${along}`
        drawn.append(dot, label)
      }
    }
    this.container.replaceChildren(drawn)
    this.container.hidden = false
  }
}

/** The town names, in a pane over the tiles and under the places' markers; none within `except`. */
export function TownLabelsLayer({ except }: { except?: LatLngBounds }) {
  const map = useMap()
  useEffect(() => {
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE)
      pane.style.zIndex = '250' // over the tiles (200), under the markers' shadows (500)
      pane.style.pointerEvents = 'none'
      pane.setAttribute('aria-hidden', 'true')
    }
    const layer = new TownLabels(except).addTo(map)
    return () => void layer.remove()
  }, [map, except])
  return null
}
