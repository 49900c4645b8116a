import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { requireSessionActor } from '@/lib/admin/session'
import { canManageSettings } from '@/lib/auth/capabilities'
import { getSiteSettings, timeZoneNames } from '@/lib/site'
import { SettingsForm } from './_components/settings-form'

export const metadata: Metadata = { title: 'Settings' }

// GET /admin/settings – administrators only: the site's title, tagline, language and time zone (README, "Site settings")
export default async function SettingsPage() {
  const actor = await requireSessionActor('/admin/settings')
  if (!canManageSettings(actor)) notFound()
  const settings = await getSiteSettings()
  // A zone the runtime knows under another name (an alias kept from before) is offered too.
  const zones = timeZoneNames()
  return (
    <>
      <h1>Settings</h1>
      <SettingsForm settings={settings} timeZones={zones.includes(settings.timezone) ? zones : [settings.timezone, ...zones]} />
    </>
  )
}
