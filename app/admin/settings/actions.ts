'use server'

import { revalidatePath } from 'next/cache'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { getSessionActorOrThrow } from '@/lib/admin/session'
import { updateSiteSettings, type SiteSettings } from '@/lib/site'

export async function updateSettingsAction(values: Record<string, unknown>): Promise<ActionResult<SiteSettings>> {
  return runAction('updateSettings', async () => {
    const settings = await updateSiteSettings(await getSessionActorOrThrow(), values)
    // Every page names the site.
    revalidatePath('/', 'layout')
    return settings
  })
}
