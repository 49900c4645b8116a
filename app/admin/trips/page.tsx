import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { requireSessionActor } from '@/lib/admin/session'
import { canManageTrips } from '@/lib/auth/capabilities'
import { listTrips } from '@/lib/trips/manage'
import { Trips } from './_components/trips'

export const metadata: Metadata = { title: 'Trips' }

// GET /admin/trips – editors and administrators: the trips GPX and KML imports made (docs/trips.md)
export default async function TripsPage() {
  const actor = await requireSessionActor('/admin/trips')
  if (!canManageTrips(actor)) notFound()
  return (
    <>
      <h1>Trips</h1>
      <p>
        A trip is the route of a journey and the posts written along it: importing a GPX or KML file with tracks makes one (Import). Visitors see the published
        trips at <a href="/trips">/trips</a>, each route as its level allows, cut wherever it enters a privacy zone.
      </p>
      <Trips trips={await listTrips(actor)} />
    </>
  )
}
