'use server'

import { revalidatePath } from 'next/cache'
import { runAction, type ActionResult } from '@/lib/admin/action-result'
import { discardImport, previewImport, runImport, type ImportPreview, type ImportRequest, type ImportResult } from '@/lib/admin/import'
import { getSessionActorOrThrow } from '@/lib/admin/session'

export async function previewImportAction(request: ImportRequest): Promise<ActionResult<ImportPreview>> {
  return runAction('previewImport', async () => previewImport(await getSessionActorOrThrow(), request))
}

export async function runImportAction(request: ImportRequest): Promise<ActionResult<ImportResult>> {
  return runAction('runImport', async () => {
    const result = await runImport(await getSessionActorOrThrow(), request)
    revalidatePath('/admin')
    return result
  })
}

export async function discardImportAction(request: ImportRequest): Promise<ActionResult> {
  return runAction('discardImport', async () => {
    await discardImport(await getSessionActorOrThrow(), request)
    return null
  })
}
