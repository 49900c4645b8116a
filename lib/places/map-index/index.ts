import 'server-only'

// The map's in-memory index of public places: what the rest of the app uses of it.
export { getPlaceIndex, keptIndexKeys } from './cache'
export { clusterPage, mapItemsIn } from './clusters'
export { countPlacesIn, placeIdsIn, type RankRange } from './box'
export { ranksBetween, type PlaceIndex } from './place-index'
export { nearestPlaces, type NearPlace } from './nearby'
