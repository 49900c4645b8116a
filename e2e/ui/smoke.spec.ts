import { expect, test } from '../support/test'

test('the home page lists demo places that link to their pages', async ({ page }) => {
  await page.goto('/')
  const first = page.getByRole('link', { name: /./ }).filter({ hasNot: page.getByText('Places', { exact: true }) }).first()
  await expect(first).toBeVisible()
  const title = (await first.textContent())!.trim()
  await first.click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
})
