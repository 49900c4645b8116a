import { axeViolations } from '../support/axe'
import { signIn } from '../support/ui-admin'
import { expect, test } from '../support/test'

// Admin → Categories (app/admin/categories): an editor sets a top-level category's colour on the map, and gives it
// back to the palette; authors have no such page.

test("an editor sets a top-level category's colour, which the map's legend and markers show, and gives it back to the palette", async ({ page }, testInfo) => {
  await signIn(page, 'editor', '/admin/categories')
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Categories' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Categories')
  const nature = page.getByRole('form', { name: 'Colour of Nature' })
  const input = nature.getByLabel('Colour of Nature')
  const palette = await input.inputValue()
  expect(palette).toMatch(/^#[0-9a-f]{6}$/)
  // A subcategory has no colour of its own.
  await expect(page.getByRole('row', { name: /Beaches/ })).toContainText('As its top-level category')
  await expect(page.getByRole('form', { name: 'Colour of Beaches' })).toHaveCount(0)
  expect(await axeViolations(page)).toEqual([])

  await input.fill('#123456')
  await nature.getByRole('button', { name: 'Save' }).click()
  await expect(page.locator('.notice')).toHaveText("Nature's colour saved.")
  await page.screenshot({ path: testInfo.outputPath('admin-categories.png') })

  await page.goto('/?zoom=2&lat=20&lng=0')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  const swatch = page.getByRole('list', { name: 'Categories: show one' }).getByRole('button', { name: 'Nature' }).locator('.map-legend-swatch')
  await expect(swatch).toHaveCSS('background-color', 'rgb(18, 52, 86)')
  await page.getByRole('button', { name: 'Nature' }).click()
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expect
    .poll(() =>
      page
        .locator('.place-marker span, .cluster-marker span')
        .evaluateAll((spans) => [...new Set(spans.map((s) => (s as HTMLElement).style.getPropertyValue('--paint')))]),
    )
    .toEqual(['#123456'])

  await page.goto('/admin/categories')
  await nature.getByRole('button', { name: "Use the palette's" }).click()
  await expect(page.locator('.notice')).toHaveText("Nature has the palette's colour again.")
  await expect(input).toHaveValue(palette)
  await expect(nature.getByRole('button', { name: "Use the palette's" })).toHaveCount(0)
})

test('authors have no Categories page, nor its link', async ({ page }) => {
  await signIn(page, 'author')
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Categories' })).toHaveCount(0)
  const response = await page.goto('/admin/categories')
  expect(response?.status()).toBe(404)
})
