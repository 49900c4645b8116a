import type { TripOption } from '@/lib/trips/manage'

/** The trips as a select's options, a draft said to be one, after the select's own first option. */
export function TripOptions({ trips }: { trips: TripOption[] }) {
  return trips.map((trip) => (
    <option key={trip.id} value={trip.id}>
      {trip.title}
      {trip.status === 'draft' ? ' (draft)' : ''}
    </option>
  ))
}
