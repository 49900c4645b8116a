import 'server-only'

// The map's in-memory index of public places (lib/places/map-index/), under the names its users import.
export { getPlaceIndex } from './map-index/cache'
export { mapItemsIn } from './map-index/clusters'
export { countPlacesIn, placeIdsIn } from './map-index/box'
export type { PlaceIndex } from './map-index/place-index'
