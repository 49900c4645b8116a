import { axeViolations } from '../support/axe'
import { importPosts, runId } from '../support/places-cli'
import { uiUser } from '../support/users'
import { expect, test } from '../support/test'
import { createPost, save, signIn, uniqueTitle } from '../support/ui-admin'

// Tags in real Chromium (README, "The admin" and "The post page"): typed in the editor and kept by a save, shown under
// a post as links to the home map filtered by them, and that map's filter, which the visitor can take off.

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

test("a post's tags link to the home map of that tag; its filter can be taken off", async ({ page, baseURL, databaseUrl, uploadsDir }) => {
  const run = runId()
  const tiles = `Azulejos ${run}`
  const at = (title: string, coordinates: [number, number], tags: string[], status = 'publish') => ({
    type: 'Feature' as const,
    geometry: { type: 'Point' as const, coordinates },
    properties: { title, slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${run}`, status, tags },
  })
  await importPosts(
    { databaseUrl, uploadsDir, baseURL: baseURL! },
    [
      at('Capela das Almas', [-8.6066, 41.1468], [tiles, `Churches & chapels ${run}`]),
      at('São Bento station', [-8.6104, 41.1456], [tiles.toUpperCase()]),
      at('Unfinished tiles', [-8.62, 41.15], [tiles], 'draft'),
    ],
    uiUser('administrator').email,
  )

  await page.goto(`/post/capela-das-almas-${run}`)
  const tags = page.getByRole('list', { name: 'Tags' })
  await expect(tags.getByRole('link')).toHaveText([tiles, `Churches & chapels ${run}`])
  await tags.getByRole('link', { name: tiles }).click()
  await expect(page).toHaveURL(/\/\?tag=\d+$/)
  await expect(page.locator('.place-tag')).toHaveText(`Tagged ${tiles} Show every tag`)
  // The two published places with the tag, whatever its case; not the draft.
  await expect(page.locator('.place-count')).toHaveText('2 places in view.')
  await expect(page.locator('.place-list > li')).toHaveCount(2)
  await page.screenshot({ path: test.info().outputPath('map-of-a-tag.png') })
  expect(await axeViolations(page), 'axe, the map of a tag').toEqual([])

  await page.getByRole('button', { name: 'Show every tag' }).click()
  await expect(page.locator('.place-tag')).toHaveCount(0)
  await expect(page).not.toHaveURL(/tag=/)
  await expect(page.locator('.place-count')).not.toHaveText('2 places in view.')
})

test('the editor: tags typed with commas and Enter, known ones suggested, kept by a save', async ({ page }) => {
  test.slow() // a sign-in, a new post, a save and a reload: 14 s quiet, 25–32 s in CI runs (timed out once at 30 s)
  await signIn(page, 'editor')
  await createPost(page, uniqueTitle('Tagged in the editor'))
  const input = page.getByLabel('Add tags')
  const chosen = page.getByRole('list', { name: 'Tags of this post' })
  // The demo's tags are suggested.
  await expect(page.locator(`datalist option[value="UNESCO World Heritage"]`)).toHaveCount(1)

  await input.fill('unesco world heritage, Sunset')
  await input.pressSequentially(',')
  await input.fill('Miradouros')
  await input.press('Enter')
  // A known tag keeps its own spelling; a new one is as typed.
  await expect(chosen.getByRole('listitem')).toHaveText(['UNESCO World Heritage×', 'Sunset×', 'Miradouros×'])
  await page.getByRole('button', { name: 'Remove tag Sunset' }).click()
  await input.fill('a'.repeat(201) + ',')
  await expect(page.getByText(/must be at most 200 characters/)).toBeVisible()
  await input.fill('')
  await page.screenshot({ path: test.info().outputPath('editor-tags.png'), fullPage: true })
  // The whole editor is checked in accessibility.spec.ts; here its tags, with chips and an error.
  expect(await axeViolations(page, 'fieldset.tags'), 'axe, the editor with tags').toEqual([])
  await save(page)

  await page.reload()
  await expect(chosen.getByRole('listitem')).toHaveText(['Miradouros×', 'UNESCO World Heritage×'])
  await expect(page.locator(`datalist option[value="Miradouros"]`)).toHaveCount(1)
})
