import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { requireSessionActor } from '@/lib/admin/session'
import { canManageZones } from '@/lib/auth/capabilities'
import { getConfig } from '@/lib/config'
import { listZones } from '@/lib/places/zones'
import { Zones } from './_components/zones'

export const metadata: Metadata = { title: 'Privacy zones' }

// GET /admin/zones – administrators only: the circles in which posts are shown coarsely (docs/privacy.md)
export default async function ZonesPage() {
  const actor = await requireSessionActor('/admin/zones')
  if (!canManageZones(actor)) notFound()
  return (
    <>
      <h1>Privacy zones</h1>
      <p>
        A post whose exact location lies inside a zone is shown to the public at least as coarsely as the zone says, whatever its own level: a home, a school, a
        shelter. Adding or removing a zone applies to the posts inside at once. Editors are told when a point is inside a zone, never where the zone is.
      </p>
      <Zones zones={await listZones(actor)} tiles={getConfig().mapTiles} />
    </>
  )
}
