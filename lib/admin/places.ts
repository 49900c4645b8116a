import 'server-only'
import { z } from 'zod'
import { hasCapability, type Actor } from '../auth/capabilities'
import { formatPlace, getGazetteer, type Place } from '../geo/gazetteer'
import { forbidden, tryAgainLater } from '../http/errors'
import { RateLimit } from '../http/rate-limit'
import { getDb } from '../db'
import { LOCATION_PRECISIONS, type LocationPrecision } from '../places/location-levels'
import { latitudeSchema, longitudeSchema } from '../places/schemas'
import { PublicLocationRule, effectivePrecision } from '../places/visibility'
import { parseOrThrow } from '../http/params'

// The editor's questions to the offline gazetteer (lib/geo/gazetteer.ts): an address for a point, towns by name.
// Only for those who may write posts (edit_posts): the answers are public data, but the gazetteer's memory and CPU
// are not for anyone who can reach the server.

/** A place as the editor offers it: "Place, Region, Country" and where it is. */
export type PlaceSuggestion = { label: string; latitude: number; longitude: number }

/** The address the editor suggests for a point, and how far the place's centre is. */
export type AddressSuggestion = PlaceSuggestion & { distanceKm: number }

export const placeQuerySchema = z.object({ query: z.string().trim().max(100, 'must be at most 100 characters'), limit: z.number().int().min(1).max(20) })
const pointSchema = z.object({ latitude: latitudeSchema, longitude: longitudeSchema })

function mayAsk(actor: Actor): void {
  if (!hasCapability(actor, 'edit_posts')) throw forbidden()
}

const suggestion = (place: Place): PlaceSuggestion => ({ label: formatPlace(place), latitude: place.latitude, longitude: place.longitude })

/** The suggested address of a point, or null where no populated place is near (the sea, the ice, the desert). */
export async function suggestAddress(actor: Actor, point: unknown): Promise<AddressSuggestion | null> {
  mayAsk(actor)
  const { latitude, longitude } = parseOrThrow(pointSchema, point)
  const found = (await getGazetteer()).reverseGeocode(latitude, longitude)
  return found && { ...suggestion(found), distanceKm: found.distanceKm }
}

/** Populated places whose name starts with the query, most populous first. */
export async function findPlaces(actor: Actor, input: unknown): Promise<PlaceSuggestion[]> {
  mayAsk(actor)
  const { query, limit } = parseOrThrow(placeQuerySchema, input)
  return (await getGazetteer()).findPlaces(query, limit).map(suggestion)
}

/** What the public will see of a location, for the editor to show before saving (docs/privacy.md). */
export type PublicPreview = {
  /** the level applied: the post's own, or a privacy zone's when coarser */
  level: LocationPrecision
  /** whether a privacy zone made it coarser than the post's own level (which zone is not said) */
  raisedByZone: boolean
  point: { latitude: number; longitude: number } | null
  address: string
}

const previewSchema = z.object({
  latitude: latitudeSchema.nullable(),
  longitude: longitudeSchema.nullable(),
  address: z.string().max(1000),
  locationPrecision: z.enum(LOCATION_PRECISIONS),
})

/** Previews a user may ask for a minute: plenty for placing a pin, few for a zone's binary search (docs/privacy.md). */
export const PREVIEWS_PER_MINUTE = 60
const previews = new RateLimit(PREVIEWS_PER_MINUTE, 60_000)

/**
 * What the public would see of this location if the post were published, by the one rule (lib/places/visibility.ts).
 * Only for those who may publish (publish_posts): they could learn it anyway by publishing, in sight of the site,
 * whereas to a contributor each answer would tell, unseen, whether a point lies in a zone (docs/privacy.md). Even
 * so each answer tells a little of the zones: PREVIEWS_PER_MINUTE a user, and a refusal is logged.
 */
export async function previewPublicLocation(actor: Actor, input: unknown): Promise<PublicPreview> {
  if (!hasCapability(actor, 'publish_posts')) throw forbidden()
  const wait = previews.take(String(actor.id))
  if (wait > 0) {
    console.warn(`location preview refused: user ${actor.id} asked for more than ${PREVIEWS_PER_MINUTE} a minute`)
    throw tryAgainLater('too_many_previews', 'Too many location previews.', Math.ceil(wait / 1000))
  }
  const location = parseOrThrow(previewSchema, input)
  const rule = await PublicLocationRule.load(getDb())
  const level = effectivePrecision(location, rule.zones)
  const columns = await rule.columns(location)
  return {
    level,
    raisedByZone: level !== location.locationPrecision,
    point:
      columns.publicLatitude !== null && columns.publicLongitude !== null ? { latitude: columns.publicLatitude, longitude: columns.publicLongitude } : null,
    address: columns.publicAddress,
  }
}
