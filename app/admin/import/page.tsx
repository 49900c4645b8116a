import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { requireSessionActor } from '@/lib/admin/session'
import { canImport } from '@/lib/auth/capabilities'
import { ImportScreen } from './_components/import-screen'

export const metadata: Metadata = { title: 'Import' }

// GET /admin/import – editors and administrators: places from a file, or a WordPress export (README, "Import").
export default async function ImportPage() {
  const actor = await requireSessionActor('/admin/import')
  if (!canImport(actor)) notFound()
  return (
    <>
      <h1>Import</h1>
      <ImportScreen />
    </>
  )
}
