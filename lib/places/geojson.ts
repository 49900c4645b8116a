import type { EmbeddedPlaceFeature, PlaceCollection, PlaceEmbedded, PlaceFeature } from '../api/contract'
import type { Place, PlaceDetails } from './query'

// The shapes are lib/api/contract.ts's, the one description of the API's answers.
export type { PlaceCollection, PlaceFeature }

/** The absolute URL of a post's public page (app/[type]/[slug]/page.tsx). */
export function postUrl(siteUrl: string, type: string, slug: string): string {
  return `${siteUrl}/${encodeURIComponent(type)}/${encodeURIComponent(slug)}`
}

/** The absolute URL of a trip's page (app/trip/[slug]/page.tsx). */
export function tripUrl(siteUrl: string, slug: string): string {
  return `${siteUrl}/trip/${encodeURIComponent(slug)}`
}

/** RFC 7946: coordinates are [longitude, latitude]; properties are exactly id, title, url and address. */
export function toFeature(place: Place, siteUrl: string): PlaceFeature {
  return {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [place.longitude, place.latitude] },
    properties: { id: place.id, title: place.title, url: postUrl(siteUrl, place.type, place.slug), address: place.address },
  }
}

export function toFeatureCollection(places: Place[], siteUrl: string): PlaceCollection {
  return { type: 'FeatureCollection', features: places.map((place) => toFeature(place, siteUrl)) }
}

/** What `_embed` adds to a place's Feature (docs/api.md, _embed). */
export function toEmbedded(details: PlaceDetails, picture: PlaceEmbedded['picture']): PlaceEmbedded {
  return { date: details.publishedAt.toISOString(), categories: details.categories, picture }
}

/** A place's Feature with its `_embedded` member. */
export function toEmbeddedFeature(place: Place, siteUrl: string, embedded: PlaceEmbedded): EmbeddedPlaceFeature {
  return { ...toFeature(place, siteUrl), _embedded: embedded }
}
