import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ApiError } from '../http/errors'
import { listCategoriesForAdmin, setCategoryColor } from './categories'

// What is refused before the database is read; what is saved is tested in the browser (e2e/ui/admin-categories.spec.ts).

const refused = (status: number, param?: string) => (error: unknown) =>
  error instanceof ApiError && error.status === status && (param === undefined || Object.keys(error.data.params as object).includes(param))

test('only editors and administrators may list categories and set their colours', async () => {
  for (const role of ['author', 'contributor', 'subscriber', 'root']) {
    const actor = { id: 7, role }
    await assert.rejects(listCategoriesForAdmin(actor), refused(403), role)
    await assert.rejects(setCategoryColor(actor, { id: 1, color: '#123456' }), refused(403), role)
  }
})

test('a colour is #rrggbb, or null for the palette', async () => {
  const editor = { id: 7, role: 'editor' }
  for (const color of ['red', '#12345', '#1234567', 'url(x)', '#12345g']) {
    await assert.rejects(setCategoryColor(editor, { id: 1, color }), refused(400, 'color'), color)
  }
  for (const input of [{ id: 0, color: null }, { id: 1 }, { id: 1, color: 5 }, { id: 1, color: null, parentId: 2 }]) {
    await assert.rejects(setCategoryColor(editor, input), refused(400), JSON.stringify(input))
  }
})
