import { readFileSync } from 'node:fs'
import path from 'node:path'
import { axeViolations } from '../support/axe'
import { expect, test } from '../support/test'

// The kinds of places (post types) on the map (issue 53): the demo's landmarks (the Eiffel Tower, the Taj Mahal) are
// a type of their own; the map offers each type with public places, and the search says which it covers.

type DemoFeature = { geometry: unknown; properties: { title: string; type?: string; status?: string; geo_public?: boolean } }
const demo: DemoFeature[] = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'prisma', 'demo', 'places.geojson'), 'utf8')).features
const landmarks = demo.filter(
  (f) => f.geometry && f.properties.type === 'landmark' && (f.properties.status ?? 'publish') === 'publish' && f.properties.geo_public !== false,
)

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

test('the map offers each kind of place; a search says which it covers, and the other kind has the Eiffel Tower', async ({ page }, testInfo) => {
  await page.goto('/?search=eiffel')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  const kinds = page.getByRole('navigation', { name: 'Kinds of places' })
  const [posts, landmarkLink] = [kinds.getByRole('link', { name: /^Posts \d/ }), kinds.getByRole('link', { name: /^Landmarks \d/ })]
  await expect(posts).toHaveAttribute('aria-current', 'page')
  // The demo's landmarks, and any another spec published meanwhile.
  expect(Number((await landmarkLink.textContent())!.replace(/\D/g, ''))).toBeGreaterThanOrEqual(landmarks.length)
  await expect(page.getByRole('searchbox', { name: 'Search titles and addresses of Posts' })).toHaveValue('eiffel')
  await expect(page.locator('.place-count')).toHaveText('No posts match “eiffel”.')
  const file = testInfo.outputPath('post-types-posts.png')
  await page.screenshot({ path: file })
  await testInfo.attach('post-types-posts', { path: file, contentType: 'image/png' })

  // The landmarks' map keeps the search: the Eiffel Tower is there.
  await landmarkLink.click()
  await expect(page).toHaveURL(/\/\?post_type=landmark&search=eiffel$/)
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expect(kinds.getByRole('link', { name: /^Landmarks/ })).toHaveAttribute('aria-current', 'page')
  await expect(page.locator('.place-list .place-title')).toHaveText(['Eiffel Tower'])
  await expect(page.getByRole('searchbox', { name: 'Search titles and addresses of Landmarks' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])
  const after = testInfo.outputPath('post-types-landmarks.png')
  await page.screenshot({ path: after })
  await testInfo.attach('post-types-landmarks', { path: after, contentType: 'image/png' })
})
