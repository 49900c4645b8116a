'use server'

import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { findPlaces, previewPublicLocation, suggestAddress, type AddressSuggestion, type PlaceSuggestion, type PublicPreview } from '@/lib/admin/places'
import { getSessionActorOrThrow } from '@/lib/admin/session'

// The location fields' questions to the offline gazetteer; lib/admin/places.ts checks who may ask.

export async function suggestAddressAction(latitude: number, longitude: number): Promise<ActionResult<AddressSuggestion | null>> {
  return runAction('suggestAddress', async () => suggestAddress(await getSessionActorOrThrow(), { latitude, longitude }))
}

export async function findPlacesAction(query: string): Promise<ActionResult<PlaceSuggestion[]>> {
  return runAction('findPlaces', async () => findPlaces(await getSessionActorOrThrow(), { query, limit: 8 }))
}

export async function previewPublicLocationAction(location: unknown): Promise<ActionResult<PublicPreview>> {
  return runAction('previewPublicLocation', async () => previewPublicLocation(await getSessionActorOrThrow(), location))
}
