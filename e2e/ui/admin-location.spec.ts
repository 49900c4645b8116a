import { expect, test } from '../support/test'
import { createPost, signIn, uniqueTitle } from '../support/ui-admin'
import type { Page } from '@playwright/test'

// The address tied to the point, "Find a place" and the marker's arrow keys, in real Chromium against the offline
// gazetteer (lib/geo/gazetteer.ts, docs/geocoding.md).

test.beforeEach(async ({ page }) => {
  await signIn(page, 'editor')
})

/** Types coordinates as an editor does, leaving each field: moves count when the field is left. */
async function typeLocation(page: Page, latitude: string, longitude: string): Promise<void> {
  await page.getByLabel('Latitude').fill(latitude)
  await page.getByLabel('Longitude').fill(longitude)
  await page.getByLabel('Longitude').blur()
}

test('an empty address is filled from the location and says so; a typed one is only replaced when asked', async ({ page }, testInfo) => {
  await createPost(page, uniqueTitle('Eiffel'))
  await expect(page.getByLabel('Address')).toHaveValue('')
  await typeLocation(page, '48.8584', '2.2945')
  await expect(page.getByLabel('Address')).toHaveValue('Paris, Île-de-France, France')
  await expect(page.getByRole('status').filter({ hasText: 'Address suggested from the location: “Paris, Île-de-France, France”' })).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('address-suggested.png'), fullPage: true })

  // A typed address and "Suggest address": asked, not replaced.
  await page.getByLabel('Address').fill('Champ de Mars, 5 avenue Anatole France')
  await page.getByRole('button', { name: 'Suggest address' }).click()
  const question = page.getByRole('group', { name: 'Keep, clear or replace?' })
  await expect(question).toContainText('Suggested address: “Paris, Île-de-France, France”')
  await expect(page.getByLabel('Address')).toHaveValue('Champ de Mars, 5 avenue Anatole France')
  await question.getByRole('button', { name: 'Keep the address' }).click()
  await expect(page.getByLabel('Address')).toHaveValue('Champ de Mars, 5 avenue Anatole France')
  await expect(page.getByRole('status').filter({ hasText: 'The address was kept as it was.' })).toBeVisible()
})

test('moving the point far from its address asks: keep, clear, or replace with the suggestion', async ({ page }, testInfo) => {
  await createPost(page, uniqueTitle('Lisbon to Tuscany'))
  await page.getByLabel('Address').fill('Rua Augusta 100, Lisboa')
  await typeLocation(page, '38.7077', '-9.1365')
  // The address was typed first, for this point: no question.
  await expect(page.getByRole('group', { name: 'Keep, clear or replace?' })).toHaveCount(0)
  await expect(page.getByLabel('Address')).toHaveValue('Rua Augusta 100, Lisboa')

  // A few hundred metres: still no question.
  await typeLocation(page, '38.7101', '-9.1400')
  await expect(page.getByRole('group', { name: 'Keep, clear or replace?' })).toHaveCount(0)

  await typeLocation(page, '43.7678', '11.2553')
  const question = page.getByRole('group', { name: 'Keep, clear or replace?' })
  await expect(question.getByRole('button', { name: 'Replace with “Florence, Tuscany, Italy”' })).toBeVisible()
  await expect(question).toContainText('The location moved 1790 km from where the address was set')
  await expect(question.getByRole('button', { name: 'Keep the address' })).toBeVisible()
  await expect(question.getByRole('button', { name: 'Clear it' })).toBeVisible()
  await expect(page.getByLabel('Address')).toHaveValue('Rua Augusta 100, Lisboa')
  await page.screenshot({ path: testInfo.outputPath('address-question.png'), fullPage: true })

  await question.getByRole('button', { name: 'Replace with “Florence, Tuscany, Italy”' }).click()
  await expect(page.getByLabel('Address')).toHaveValue('Florence, Tuscany, Italy')
  await expect(page.getByRole('group', { name: 'Keep, clear or replace?' })).toHaveCount(0)

  // Far again, and "Clear it".
  await typeLocation(page, '38.7077', '-9.1365')
  await page.getByRole('group', { name: 'Keep, clear or replace?' }).getByRole('button', { name: 'Clear it' }).click()
  await expect(page.getByLabel('Address')).toHaveValue('')
})

test('"Find a place" by keyboard: type, arrow to a town, Enter; the map centres there and can take the point', async ({ page }, testInfo) => {
  await createPost(page, uniqueTitle('Find Florence'))
  const box = page.getByRole('combobox', { name: 'Find a place' })
  await box.focus()
  await page.keyboard.type('qqxz')
  await expect(page.getByText('No town by that name.')).toHaveAttribute('aria-live', 'polite')
  await box.fill('')
  await page.keyboard.type('florence')
  const list = page.getByRole('listbox', { name: 'Places' })
  await expect(list.getByRole('option').first()).toHaveText('Florence, Tuscany, Italy')
  await expect(box).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(list.getByRole('option', { selected: true })).toHaveCount(1)
  const second = await list.getByRole('option', { selected: true }).textContent()
  await expect(box).toHaveAttribute('aria-activedescendant', /option-1$/)
  await page.keyboard.press('ArrowUp')
  await expect(list.getByRole('option', { selected: true })).toHaveText('Florence, Tuscany, Italy')
  await page.screenshot({ path: testInfo.outputPath('find-a-place.png'), fullPage: true })
  await page.keyboard.press('Enter')
  await expect(box).toHaveValue('Florence, Tuscany, Italy')
  await expect(box).toHaveAttribute('aria-expanded', 'false')
  expect(second).not.toBe('Florence, Tuscany, Italy')
  await expect(page.getByText('Map centred on Florence, Tuscany, Italy.')).toBeVisible()
  // The post has no location yet: only the map moved.
  await expect(page.getByLabel('Latitude')).toHaveValue('')

  await page.keyboard.press('Tab')
  await expect(page.getByRole('button', { name: 'Put the location here' })).toBeFocused()
  await page.keyboard.press('Enter')
  expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(43.77, 1)
  expect(Number(await page.getByLabel('Longitude').inputValue())).toBeCloseTo(11.25, 1)
  // The point put there, with no address: the suggestion fills it.
  await expect(page.getByLabel('Address')).toHaveValue('Florence, Tuscany, Italy')

  // Escape closes the list, then clears the box.
  await box.fill('')
  await box.focus()
  await page.keyboard.type('lisb')
  await expect(list.getByRole('option').first()).toHaveText('Lisbon, Portugal')
  await page.keyboard.press('Escape')
  await expect(box).toHaveAttribute('aria-expanded', 'false')
  await page.keyboard.press('Escape')
  await expect(box).toHaveValue('')
})

test('the focused marker moves with the arrow keys, Shift for bigger steps, and says where it is', async ({ page }, testInfo) => {
  await createPost(page, uniqueTitle('Nudge'))
  await page.getByLabel('Address').fill('By the river')
  await typeLocation(page, '38.7077', '-9.1365')
  const marker = page.locator('.location-marker')
  await expect(marker).toHaveAttribute('title', 'Location marker at 38.7077, -9.1365')
  await marker.focus()
  await expect(marker).toBeFocused()

  await page.keyboard.press('ArrowRight')
  await expect(page.getByLabel('Longitude')).not.toHaveValue('-9.1365')
  const east = Number(await page.getByLabel('Longitude').inputValue())
  expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(38.7077, 6)
  const step = east - -9.1365
  expect(step).toBeGreaterThan(0)
  expect(step).toBeLessThan(0.01)
  const announcement = page.getByTestId('marker-announcement')
  await expect(announcement).toHaveText(`Location moved to 38.7077, ${east}`)
  await expect(announcement).toHaveAttribute('aria-live', 'polite')
  await expect(marker).toHaveAttribute('title', `Location marker at 38.7077, ${east}`)
  await expect(marker).toBeFocused()

  await page.keyboard.press('Shift+ArrowUp')
  await expect(page.getByLabel('Latitude')).not.toHaveValue('38.7077')
  const north = Number(await page.getByLabel('Latitude').inputValue())
  // Ten times the step, in latitude's degrees (a little fewer than longitude's at 38.7° N on this projection).
  expect(north - 38.7077).toBeGreaterThan(5 * step * Math.cos((38.7077 * Math.PI) / 180))
  expect(north - 38.7077).toBeLessThan(10 * step)
  await expect(announcement).toHaveText(`Location moved to ${north}, ${east}`)
  await expect(marker).toBeFocused()
  await page.screenshot({ path: testInfo.outputPath('marker-keys.png'), fullPage: true })
  // A nudge is no move away from the address.
  await expect(page.getByRole('group', { name: 'Keep, clear or replace?' })).toHaveCount(0)
  await expect(page.getByLabel('Address')).toHaveValue('By the river')
})
