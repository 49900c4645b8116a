// The levels of location privacy (docs/privacy.md), from the most precise to none. No server code here: the editor
// lists them too.

export const LOCATION_PRECISIONS = ['exact', 'approximate', 'city', 'hidden'] as const
export type LocationPrecision = (typeof LOCATION_PRECISIONS)[number]

/** The levels a privacy zone may impose: a zone that showed the exact point would protect nothing. */
export const ZONE_LEVELS = ['approximate', 'city', 'hidden'] as const satisfies readonly LocationPrecision[]
export type ZoneLevel = (typeof ZONE_LEVELS)[number]

/** The levels of a trip's route: a route drawn through towns' centres would be a line through places never passed. */
export const ROUTE_PRECISIONS = ['exact', 'approximate', 'hidden'] as const satisfies readonly LocationPrecision[]
export type RoutePrecision = (typeof ROUTE_PRECISIONS)[number]

/** A route's level from a stored or stated one: an unknown one (a row written by hand, a post's city) shows no route. */
export function routePrecisionOf(value: string): RoutePrecision {
  return (ROUTE_PRECISIONS as readonly string[]).includes(value) ? (value as RoutePrecision) : 'hidden'
}

export function isLocationPrecision(value: unknown): value is LocationPrecision {
  return (LOCATION_PRECISIONS as readonly unknown[]).includes(value)
}

/** The coarser of two levels. */
export function coarser(a: LocationPrecision, b: LocationPrecision): LocationPrecision {
  return LOCATION_PRECISIONS.indexOf(a) >= LOCATION_PRECISIONS.indexOf(b) ? a : b
}

/** How the admin names each level, and what it tells the editor the public will see. */
export const LOCATION_PRECISION_TEXT: Record<LocationPrecision, { label: string; hint: string }> = {
  exact: { label: 'Exact', hint: 'The public sees the point and the address as entered.' },
  approximate: {
    label: 'Approximate (about 1 km)',
    hint: 'The public sees the centre of a fixed square of about 1 km around the point, and the nearest town as the address.',
  },
  city: { label: 'City', hint: 'The public sees only the nearest town or city: its centre, and its name as the address.' },
  hidden: { label: 'Hidden', hint: 'The public sees no location at all: no point, no address.' },
}
