'use client'
import { latLngBounds, type FitBoundsOptions, type LatLngBounds, type LatLngTuple, type Map as LeafletMap } from 'leaflet'
import { startTransition, useCallback, useEffect, useEffectEvent, useRef, useState } from 'react'
import { titleText } from '@/lib/content/title'
import { MAX_MERCATOR_LATITUDE } from '@/lib/geo/web-mercator'
import type { BBox, ClusterFeature, EmbeddedClusterFeature, EmbeddedPlaceFeature, MapCollection, PlaceFeature, Timeline } from '@/lib/api/contract'
import type { MapState } from '@/lib/places/schemas'
import type { ListedPlace, PlaceListState } from './place-panel'

// The public map's data: what GET /places/v1/geojson answers for the view (clusters and places, and the list of the
// places in view), fetched on every move with the previous request cancelled, and the view kept in the address.
// Used by places-map.tsx only, which the browser alone loads (it needs Leaflet).

export function isCluster<F extends ClusterFeature | PlaceFeature>(feature: F): feature is Extract<F, ClusterFeature> {
  return 'cluster' in feature.properties
}

/** What the map draws, asked with `_embed`: places with their categories, clusters with their mix (docs/api.md, _embed). */
export type MarkerFeature = EmbeddedClusterFeature | EmbeddedPlaceFeature

export type InitialView = { center: LatLngTuple; zoom: number } | { bounds: LatLngBounds; boundsOptions: FitBoundsOptions }

/** The markers of the last view loaded, the longitude of that view's centre (markers are drawn near it) and its zoom. */
export type Markers = { centre: number; zoom: number; features: MarkerFeature[] }

export type MapStatus = 'loading' | 'ready' | 'error'

export const MAX_ZOOM = 19
const LIST_PAGE = 50
// Clusters are asked for a margin around the view, so that a short pan shows markers at once.
const CLUSTER_MARGIN = 0.25
// A burst of moves (a drag, keys held down) loads once, this long after the last.
const MOVE_SETTLE_MS = 80
const WORLD_VIEW: InitialView = { center: [20, 0], zoom: 2 }
// Room for the buttons over the map (top) and a notice or the attribution (bottom): no place is fitted under them.
export const FIT: FitBoundsOptions = { paddingTopLeft: [32, 64], paddingBottomRight: [32, 72], maxZoom: 15 }

const round = (value: number, digits: number) => Number(value.toFixed(digits))

/** A latitude at the edge of Web Mercator's square as the pole: the places nearer the pole are drawn at that edge. */
const toPole = (latitude: number): number => (latitude >= MAX_MERCATOR_LATITUDE ? 90 : latitude <= -MAX_MERCATOR_LATITUDE ? -90 : latitude)

/** Leaflet's bounds (longitudes past ±180 when the map has been panned round the world) as the API's bbox. */
export function toBBox(bounds: LatLngBounds): BBox {
  const south = toPole(round(bounds.getSouth(), 5))
  const north = toPole(round(bounds.getNorth(), 5))
  const width = bounds.getEast() - bounds.getWest()
  if (width >= 360) return [-180, south, 180, north]
  const west = round(((((bounds.getWest() + 180) % 360) + 360) % 360) - 180, 5)
  let east = round(west + width, 5)
  if (east > 180) east = round(east - 360, 5) // west > east: the box crosses the antimeridian
  return [west, south, east, north]
}

/** The API's bbox as Leaflet bounds, east of west even across the antimeridian. */
export function toBounds([west, south, east, north]: BBox): LatLngBounds {
  return latLngBounds([south, west], [north, east >= west ? east : east + 360])
}

/** The parameters that have a value, as strings. */
function definedOf(params: Record<string, string | number | null | undefined>): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined) defined[name] = String(value)
  return defined
}

export function geojsonUrl(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams(definedOf(params))
  // `_embed` takes no value, as WordPress writes it.
  return `/places/v1/geojson?${search}`.replace('_embed=&', '_embed&').replace(/_embed=$/, '_embed')
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { Accept: 'application/geo+json' } })
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`)
  return response.json() as Promise<T>
}

/** A marker's feature with its title as text (title-text.ts); a cluster as it is. */
function withTitleText<F extends ClusterFeature | PlaceFeature>(feature: F): F {
  return 'title' in feature.properties ? { ...feature, properties: { ...feature.properties, title: titleText(feature.properties.title) } } : feature
}

export function toListedPlace({ geometry, properties, ...rest }: PlaceFeature | EmbeddedPlaceFeature): ListedPlace {
  const embedded = '_embedded' in rest ? rest._embedded : undefined
  return { ...properties, title: titleText(properties.title), longitude: geometry.coordinates[0], latitude: geometry.coordinates[1], embedded }
}

/**
 * What the map shows: a post type, and the category, tag, search and days of publication chosen (the address keeps
 * them: MapState).
 */
export type MapFilter = Pick<MapState, 'postType' | 'categoryId' | 'tagId' | 'search' | 'after' | 'before'>

/** The filter as GET /places/v1/geojson's (and /export's) parameters. */
export function filterParams({ postType, categoryId, tagId, search, after, before }: MapFilter): Record<string, string | undefined> {
  return {
    post_type: postType,
    category: categoryId?.toString(),
    tag: tagId?.toString(),
    search: search || undefined,
    after: after || undefined,
    before: before || undefined,
  }
}

/** The map's parameters as the home page and /embed read them (parseMapState): a link to the same map. */
export function mapParams(map: LeafletMap, { postType, categoryId, tagId, search, after, before }: MapFilter): URLSearchParams {
  const centre = map.getCenter().wrap()
  const params = new URLSearchParams()
  if (postType !== 'post') params.set('post_type', postType)
  if (categoryId !== null) params.set('category', String(categoryId))
  if (tagId !== null) params.set('tag', String(tagId))
  if (search) params.set('search', search)
  if (after) params.set('after', after)
  if (before) params.set('before', before)
  params.set('zoom', String(map.getZoom()))
  params.set('lat', centre.lat.toFixed(5))
  params.set('lng', centre.lng.toFixed(5))
  return params
}

/** Keeps the view, the filter and the search in the address, so that a link reopens the same map. */
function writeAddress(map: LeafletMap, filter: MapFilter) {
  window.history.replaceState(null, '', `?${mapParams(map, filter)}`)
}

type Options = {
  /** the Leaflet map, once it is there */
  map: LeafletMap | null
  /** the filter the address asked for; the post type stays, the rest the visitor may change */
  initialFilter: MapFilter
  /** the view the address asked for; null to fit the places */
  view: MapState['view']
  /** whether to list the places in view (the home map; not /embed) */
  withList: boolean
}

/**
 * The map's data for its view and filter: the first view (`initial`, null until known), the markers, the list and
 * its next pages, and whether the last load is ready. `status` 'ready' the first time also marks
 * `places-map:ready` for the benchmark (bench/map-browser.mts) and anyone measuring.
 */
export function usePlacesMapData({ map, initialFilter, view, withList }: Options) {
  const [filter, setFilter] = useState(initialFilter)
  const [markers, setMarkers] = useState<Markers | null>(null)
  const [list, setList] = useState<(PlaceListState & { bbox: BBox; page: number }) | null>(null)
  const [timeline, setTimeline] = useState<Timeline | null>(null)
  const [status, setStatus] = useState<MapStatus>('loading')
  const [isLoadingMore, setIsLoadingMore] = useState(false)
  const loading = useRef<AbortController | null>(null)

  const load = useCallback(
    async (map: LeafletMap, filter: MapFilter, fitToExtent: boolean) => {
      loading.current?.abort()
      const controller = new AbortController()
      loading.current = controller
      setStatus('loading')
      const zoom = map.getZoom()
      const bounds = map.getBounds()
      const inView = toBBox(bounds)
      const params = filterParams(filter)
      try {
        // The timeline counts the view's places whenever published (the days chosen are a part of it); apart, so that
        // the map never waits for it nor fails with it.
        if (withList) {
          const timelineParams = definedOf({ ...params, after: undefined, before: undefined, bbox: inView.join(',') })
          getJson<Timeline>(`/places/v1/timeline?${new URLSearchParams(timelineParams)}`, controller.signal)
            .then((counts) => startTransition(() => setTimeline(counts)))
            .catch((error: unknown) => {
              if (controller.signal.aborted) return
              console.error(error)
              setTimeline(null)
            })
        }
        const [clusters, page] = await Promise.all([
          getJson<MapCollection<MarkerFeature>>(
            geojsonUrl({ ...params, cluster: 'true', zoom, bbox: toBBox(bounds.pad(CLUSTER_MARGIN)).join(','), _embed: '' }),
            controller.signal,
          ),
          withList
            ? getJson<MapCollection<EmbeddedPlaceFeature>>(
                geojsonUrl({ ...params, bbox: inView.join(','), posts_per_page: LIST_PAGE, _embed: '' }),
                controller.signal,
              )
            : null,
        ])
        // A transition: React renders the markers and the list in slices that leave the page's thread free between
        // them (a phone's thread would otherwise be held for a tenth of a second or more).
        startTransition(() => {
          setMarkers({ centre: map.getCenter().lng, zoom, features: clusters.features.map(withTitleText) })
          if (page) setList({ places: page.features.map(toListedPlace), total: page.total, anywhere: page.extent !== null, bbox: inView, page: 1 })
          setStatus('ready')
        })
        // A new category, tag or search: show all its places (the move loads them). New days keep the view.
        if (fitToExtent && clusters.extent) map.fitBounds(toBounds(clusters.extent), FIT)
      } catch (error) {
        if (controller.signal.aborted) return
        console.error(error)
        setStatus('error')
      }
    },
    [withList],
  )

  // Every move (pan, zoom, keyboard) loads its view and goes into the address; a burst of moves loads once.
  const currentFilter = useEffectEvent(() => filter)
  useEffect(() => {
    if (!map) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const onMoveEnd = () => {
      writeAddress(map, currentFilter())
      clearTimeout(timer)
      timer = setTimeout(() => void load(map, currentFilter(), false), MOVE_SETTLE_MS)
    }
    map.on('moveend', onMoveEnd)
    // The map is the outside system: its first view is loaded as soon as it exists, then each move.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- load() sets the loading state before it fetches
    void load(map, currentFilter(), false)
    return () => {
      clearTimeout(timer)
      map.off('moveend', onMoveEnd)
      loading.current?.abort()
    }
  }, [map, load, withList])

  /**
   * A new category, tag or search (empty: none): the list shows its places, the map fits them. New days (the
   * timeline's) keep the view: the visitor is looking at a part of the map in time.
   */
  const changeFilter = useCallback(
    (change: Partial<Pick<MapFilter, 'categoryId' | 'tagId' | 'search' | 'after' | 'before'>>) => {
      const next = { ...filter, ...change }
      setFilter(next)
      if (!map) return
      writeAddress(map, next)
      void load(map, next, !('after' in change || 'before' in change))
    },
    [map, load, filter],
  )

  const showMore = useCallback(async () => {
    if (!list) return
    setIsLoadingMore(true)
    try {
      const page = await getJson<MapCollection<EmbeddedPlaceFeature>>(
        geojsonUrl({
          ...filterParams(filter),
          bbox: list.bbox.join(','),
          posts_per_page: LIST_PAGE,
          page: list.page + 1,
          _embed: '',
        }),
      )
      setList((current) => {
        if (!current || current.bbox !== list.bbox) return current
        // A place published meanwhile moves the pages by one: the next page then begins with the last one listed.
        const listed = new Set(current.places.map((place) => place.id))
        const places = page.features.map(toListedPlace).filter((place) => !listed.has(place.id))
        return { ...current, places: [...current.places, ...places], page: list.page + 1 }
      })
    } catch (error) {
      console.error(error)
    } finally {
      setIsLoadingMore(false)
    }
  }, [list, filter])

  const hasDrawn = useRef(false)
  useEffect(() => {
    if (status !== 'ready' || hasDrawn.current) return
    hasDrawn.current = true
    requestAnimationFrame(() => performance.mark('places-map:ready'))
  }, [status])

  // The first view: the address's, else one that fits every place of the filter (their extent,
  // from the smallest answer of the API: the clusters of zoom 0).
  const [initial, setInitial] = useState<InitialView | null>(() =>
    view ? { center: [view.latitude, view.longitude], zoom: Math.min(view.zoom, MAX_ZOOM) } : null,
  )
  useEffect(() => {
    if (initial) return
    const controller = new AbortController()
    getJson<MapCollection<unknown>>(geojsonUrl({ ...filterParams(filter), cluster: 'true', zoom: 0 }), controller.signal)
      .then((answer) => setInitial(answer.extent ? { bounds: toBounds(answer.extent), boundsOptions: FIT } : WORLD_VIEW))
      .catch((error) => {
        if (controller.signal.aborted) return
        console.error(error)
        setInitial(WORLD_VIEW)
      })
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once: the first view only; later changes move the map, not this
  }, [])

  return { initial, filter, changeFilter, markers, list, timeline, status, isLoadingMore, showMore }
}
