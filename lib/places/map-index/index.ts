import 'server-only'

// The map's in-memory index of public places: what the rest of the app uses of it.
export { getPlaceIndex, keptIndexKeys } from './cache'
export { clusterRanks, mapItemsIn } from './clusters'
export { countPlacesIn, isIn, placeIdsIn, type RankRange } from './box'
export { ranksBetween, type PlaceIndex } from './place-index'
export { nearestPlaces, type NearPlace } from './nearby'
