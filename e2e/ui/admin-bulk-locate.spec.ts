import { queryRows } from '../../test/support/sql'
import { importMedia, importPosts, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { GOX_GPS, photo, signIn } from '../support/ui-admin'
import { uiUser } from '../support/users'

// The posts list's selection and its bulk action "Import locations from media", in real Chromium: what it sets, what
// it skips and why, and that the data layer, not the list, decides whose posts may change (lib/places/locate.ts).

let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

type Row = { latitude: number | null; longitude: number | null; address: string }

async function locationOf(id: number): Promise<Row | undefined> {
  return (await queryRows<Row>(server.databaseUrl, 'SELECT latitude, longitude, address FROM posts WHERE id = ?', [id]))[0]
}

/** epy_nikon_D3100_TypeError.jpg's GPS (test/fixtures/exif/truth.json), in Genoa. */
const NIKON_GPS = { latitude: 44.4207431, longitude: 8.9393332 }

test('an editor selects posts with the keyboard and imports their locations from their photos, with a summary per post', async ({ page }, testInfo) => {
  test.slow() // four runs of the command line and five photos stored before the browser starts: 22–31 s in CI runs
  const tag = `Bulk ${runId()}`
  // One of another author's (an editor may edit it), one whose photo has no GPS, one placed already; of a post type
  // of this spec's own, so that their places are on no other spec's map.
  const [fromPhoto, noGps, placed] = await importPosts(
    server,
    [
      { type: 'Feature', geometry: null, properties: { title: `${tag} from photo`, type: 'bulktest', author: uiUser('author').email } },
      { type: 'Feature', geometry: null, properties: { title: `${tag} no GPS`, type: 'bulktest' } },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [2.2945, 48.8584] }, properties: { title: `${tag} placed`, type: 'bulktest' } },
    ],
    uiUser('editor').email,
  )
  await importMedia(server, fromPhoto!, [photo('exr_noexif.jpg'), photo('gox_gps.jpg')])
  await importMedia(server, noGps!, [photo('exr_noexif.jpg')])
  await importMedia(server, placed!, [photo('epy_nikon_D3100_TypeError.jpg')])

  await signIn(page, 'editor', `/admin?q=${encodeURIComponent(tag)}`)
  await expect(page.getByRole('row')).toHaveCount(4)
  // Keyboard only: Space on the page's checkbox selects the three rows.
  const all = page.getByRole('checkbox', { name: 'Select all posts on this page' })
  await all.focus()
  await page.keyboard.press('Space')
  for (const title of ['from photo', 'no GPS', 'placed']) await expect(page.getByRole('checkbox', { name: `Select “${tag} ${title}”` })).toBeChecked()
  await expect(page.getByText('3 posts selected')).toBeVisible()
  await page.getByRole('checkbox', { name: `Select “${tag} placed”` }).press('Space')
  await expect(all).not.toBeChecked()
  await expect(all).toHaveJSProperty('indeterminate', true)
  await page.getByRole('checkbox', { name: `Select “${tag} placed”` }).press('Space')
  await expect(all).toBeChecked()

  const bar = page.getByRole('form', { name: 'Bulk actions' })
  await bar.getByLabel('Bulk action').selectOption({ label: 'Import locations from media' })
  await expect(bar.getByLabel('Only posts without a location')).toBeChecked()
  await bar.getByRole('button', { name: 'Apply' }).click()
  const summary = page.getByRole('status', { name: 'What the bulk action changed' })
  await expect(summary).toContainText('Import locations from media: set 1 post (1 address filled), skipped 2.')
  await expect(summary.getByRole('listitem').filter({ hasText: `“${tag} from photo”` })).toContainText(
    `Set “${tag} from photo”: location set to ${GOX_GPS.latitude}, ${GOX_GPS.longitude} from photo`,
  )
  await expect(summary.getByRole('listitem').filter({ hasText: `“${tag} from photo”` })).toContainText(
    'address filled: “Lantana, Florida, United States of America”',
  )
  await expect(summary.getByRole('listitem').filter({ hasText: `“${tag} no GPS”` })).toContainText(
    'Skipped “' + tag + ' no GPS”: no photo has GPS (1 photo looked at)',
  )
  await expect(summary.getByRole('listitem').filter({ hasText: `“${tag} placed”` })).toContainText('has a location already')
  // The list shows the new location once the server has it; the selection is cleared.
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `${tag} from photo` })
      .locator('.col-location'),
  ).toHaveText('Exact')
  await expect(page.getByText('0 posts selected')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('bulk-summary.png'), fullPage: true })

  expect(await locationOf(fromPhoto!)).toEqual({ ...GOX_GPS, address: 'Lantana, Florida, United States of America' })
  expect(await locationOf(noGps!)).toEqual({ latitude: null, longitude: null, address: '' })
  expect(await locationOf(placed!)).toEqual({ latitude: 48.8584, longitude: 2.2945, address: '' })

  // Without "only posts without a location", a placed post takes its photo's point; its empty address is filled.
  await page.getByRole('checkbox', { name: `Select “${tag} placed”` }).check()
  await bar.getByLabel('Bulk action').selectOption({ label: 'Import locations from media' })
  await bar.getByLabel('Only posts without a location').uncheck()
  await bar.getByRole('button', { name: 'Apply' }).click()
  await expect(summary).toContainText('Import locations from media: set 1 post (1 address filled), skipped 0.')
  const genoa = await locationOf(placed!)
  expect(genoa).toMatchObject(NIKON_GPS)
  expect(genoa?.address).toMatch(/Genoa|Genova/)
  await page.screenshot({ path: testInfo.outputPath('bulk-replaced.png'), fullPage: true })
})

test("an author cannot change another's post through the bulk action, even when the request names it", async ({ page }, testInfo) => {
  test.slow() // two runs of the command line for posts and two for photos before the browser starts: 22 s in a quiet CI run
  const tag = `Bulk author ${runId()}`
  const [own, editors] = await importPosts(
    server,
    [
      { type: 'Feature', geometry: null, properties: { title: `${tag} own`, author: uiUser('author').email, status: 'draft' } },
      { type: 'Feature', geometry: null, properties: { title: `${tag} editor's`, author: uiUser('editor').email, status: 'draft' } },
    ],
    uiUser('author').email,
  )
  await importMedia(server, own!, [photo('gox_gps.jpg')])
  await importMedia(server, editors!, [photo('gox_gps.jpg')])

  await signIn(page, 'author', `/admin?q=${encodeURIComponent(tag)}`)
  // The list offers only the author's own post…
  await expect(page.getByRole('checkbox', { name: `Select “${tag} own”` })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: `Select “${tag} editor's”` })).toHaveCount(0)
  // …so the request is rewritten on its way, as a hand-made one would be: it names the editor's post as well.
  await page.route('**/admin*', async (route) => {
    const body = route.request().postData()
    if (route.request().method() !== 'POST' || !body?.includes(`[${own}]`)) return route.continue()
    await route.continue({ postData: body.replace(`[${own}]`, `[${own},${editors}]`) })
  })
  await page.getByRole('checkbox', { name: `Select “${tag} own”` }).check()
  const bar = page.getByRole('form', { name: 'Bulk actions' })
  await bar.getByLabel('Bulk action').selectOption({ label: 'Import locations from media' })
  await bar.getByRole('button', { name: 'Apply' }).click()
  const summary = page.getByRole('status', { name: 'What the bulk action changed' })
  await expect(summary).toContainText('set 1 post (1 address filled), skipped 1.')
  await expect(summary.getByRole('listitem').filter({ hasText: `post ${editors}` })).toHaveText(`Skipped post ${editors}: not found, or you may not edit it`)
  await expect(summary).not.toContainText(`${tag} editor's`)
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `${tag} own` })
      .locator('.col-location'),
  ).toHaveText('Exact')
  await page.screenshot({ path: testInfo.outputPath('bulk-author-refused.png'), fullPage: true })

  expect(await locationOf(own!)).toEqual({ ...GOX_GPS, address: 'Lantana, Florida, United States of America' })
  expect(await locationOf(editors!)).toEqual({ latitude: null, longitude: null, address: '' })
})
