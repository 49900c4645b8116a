import { expect, test } from '../support/test'
import { createPost, dropPhotos, GOX_GPS, photo, save, saveButton, signIn, uniqueTitle, uploadPhotos } from '../support/ui-admin'
import { getCollection, type WordPressError } from '../support/http'
import type { Feature } from '../support/places'

// The post editor in real Chromium, as an editor uses it: photos, "Import location from media", the map, saving;
// every outcome checked where it shows, in the public GeoJSON API.

test.beforeEach(async ({ page }) => {
  await signIn(page, 'editor')
})

test('a photo’s GPS becomes the post’s location: upload with progress, import, save, and the place is public', async ({ page, request }, testInfo) => {
  test.slow() // an upload, its sizes, a save and the public pages read back: 25.6 s of its 30 in a quiet CI run
  const title = uniqueTitle('Harbour walk')
  const id = await createPost(page, title)
  await expect(page.getByLabel('Latitude')).toHaveValue('')

  // Slow the upload down (Chromium's own network throttling) to watch its progress bar move.
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 48 * 1024 })
  await page.locator('.drop-zone input[type=file]').setInputFiles(photo('gox_gps.jpg'))
  const upload = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'gox_gps.jpg' })
  const progress = upload.getByRole('progressbar', { name: 'Upload of gox_gps.jpg' })
  await expect
    .poll(
      async () => {
        const [value, max] = await Promise.all([progress.getAttribute('value'), progress.getAttribute('max')])
        return Number(value) > 0 && Number(value) < Number(max)
      },
      { message: 'the progress bar shows a part of the file sent', intervals: [50] },
    )
    .toBe(true)
  await expect(upload).toContainText('Uploaded', { timeout: 15_000 })
  expect(await progress.getAttribute('value')).toBe(await progress.getAttribute('max'))
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  const photos = page.getByRole('list', { name: 'Photos, in order' })
  await expect(photos.getByRole('listitem')).toHaveCount(1)
  await expect(photos.getByRole('img', { name: 'gox_gps' })).toBeVisible()

  await page.getByRole('button', { name: 'Import location from media' }).click()
  await expect(page.getByText('Location filled in from the photo “gox_gps”')).toBeVisible()
  const latitude = Number(await page.getByLabel('Latitude').inputValue())
  const longitude = Number(await page.getByLabel('Longitude').inputValue())
  expect(latitude).toBeCloseTo(GOX_GPS.latitude, 6)
  expect(longitude).toBeCloseTo(GOX_GPS.longitude, 6)
  await expect(page.locator('.location-marker')).toHaveAttribute('title', `Location marker at ${latitude}, ${longitude}`)

  // Nothing is saved until the editor saves: the same post in another tab has no location yet.
  const other = await page.context().newPage()
  await other.goto(`/admin/posts/${id}`)
  await expect(other.getByLabel('Latitude')).toHaveValue('')
  await other.close()

  await page.getByLabel('Status').selectOption('publish')
  await page.getByLabel('Address').fill('Boynton Inlet, Florida')
  await page.screenshot({ path: testInfo.outputPath('editor.png'), fullPage: true })
  await save(page)

  const response = await request.get(`/places/v1/geojson/${id}`)
  expect(response.status(), await response.text()).toBe(200)
  const feature = (await response.json()) as Feature
  expect(feature.properties).toMatchObject({ id, title, address: 'Boynton Inlet, Florida' })
  expect(feature.geometry.coordinates[0]).toBeCloseTo(GOX_GPS.longitude, 6)
  expect(feature.geometry.coordinates[1]).toBeCloseTo(GOX_GPS.latitude, 6)

  // On the public map: the collection the map draws (newest first, so a post dated now is on its first page)…
  const collection = await getCollection(request, '?posts_per_page=500')
  expect(collection.features.map((f) => f.properties.id)).toContain(id)
  // …and on the home page, where it lists places by title (it is being rebuilt around the map: checked when it does).
  await page.goto('/')
  const onHome = page.getByRole('link', { name: title })
  if ((await onHome.count()) > 0)
    await expect(onHome.first()).toHaveAttribute('href', new RegExp(`/post/${encodeURIComponent(feature.properties.url.split('/').at(-1)!)}$`))
  await page.goto(feature.properties.url)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
})

test('photos without GPS: the editor says how many were looked at and changes nothing', async ({ page }, testInfo) => {
  const id = await createPost(page, uniqueTitle('No GPS here'))
  await page.getByLabel('Latitude').fill('48.8584')
  await page.getByLabel('Longitude').fill('2.2945')
  await save(page)
  await uploadPhotos(page, 'exr_noexif.jpg', 'mei_Nikon D5000.jpg')
  await expect(page.getByRole('list', { name: 'Photos, in order' }).getByRole('listitem')).toHaveCount(2)

  await page.getByRole('button', { name: 'Import location from media' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'No photo of this post has GPS data: 2 photos were looked at. The location was not changed.' }),
  ).toBeVisible()
  await expect(page.getByLabel('Latitude')).toHaveValue('48.8584')
  await expect(page.getByLabel('Longitude')).toHaveValue('2.2945')
  await expect(page.getByText('Unsaved changes.')).toHaveCount(0)
  await page.screenshot({ path: testInfo.outputPath('editor-no-gps.png'), fullPage: true })

  // The route the button asks says the same.
  const gps = await page.request.get(`/places/v1/attachment-exif-gps/${id}`)
  expect(gps.status()).toBe(404)
  expect(((await gps.json()) as WordPressError).data.images_checked).toBe(2)
  await page.reload()
  await expect(page.getByLabel('Latitude')).toHaveValue('48.8584')
  await expect(page.getByLabel('Longitude')).toHaveValue('2.2945')
})

test('a post with no photos: the editor says so', async ({ page }) => {
  await createPost(page, uniqueTitle('No photos'))
  await page.getByRole('button', { name: 'Import location from media' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'This post has no photos to look at' })).toBeVisible()
  await expect(page.getByLabel('Latitude')).toHaveValue('')
})

// gox_gps-2000-scaled.jpg is another photo, with GPS elsewhere (test/fixtures/exif/truth.json).
const SCALED_GPS = { latitude: -38.4051947833333, longitude: 144.188958 }

test('photos in order, renamed and removed; import asks before replacing a location and takes the first photo with GPS', async ({ page }, testInfo) => {
  const id = await createPost(page, uniqueTitle('Ordered photos'))
  await uploadPhotos(page, 'exr_noexif.jpg', 'gox_gps.jpg', 'gox_gps-2000-scaled.jpg')
  const photos = page.getByRole('list', { name: 'Photos, in order' })
  const titles = () =>
    photos
      .getByRole('listitem')
      .getByRole('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))
  await expect.poll(titles).toEqual(['exr_noexif', 'gox_gps', 'gox_gps-2000-scaled'])

  // The last one first: it is now the first photo with GPS.
  await page.getByRole('button', { name: 'Move “gox_gps-2000-scaled” up' }).click()
  await expect.poll(titles).toEqual(['exr_noexif', 'gox_gps-2000-scaled', 'gox_gps'])
  await page.getByRole('button', { name: 'Move “gox_gps-2000-scaled” up' }).click()
  await expect.poll(titles).toEqual(['gox_gps-2000-scaled', 'exr_noexif', 'gox_gps'])

  await page.getByLabel('Title of photo 1').fill('Scaled copy')
  await photos.getByRole('listitem').first().getByRole('button', { name: 'Rename' }).click()
  await expect.poll(titles).toEqual(['Scaled copy', 'exr_noexif', 'gox_gps'])

  const removed = await photos.getByRole('img', { name: 'exr_noexif' }).getAttribute('src')
  await page.getByRole('button', { name: 'Remove “exr_noexif”…' }).click()
  await page.getByRole('button', { name: 'Remove “exr_noexif” for good' }).click()
  await expect.poll(titles).toEqual(['Scaled copy', 'gox_gps'])
  expect((await page.request.get(removed!)).status(), 'the removed file is gone').toBe(404)

  // The order, names and removal are stored: the GPS route walks them.
  await page.reload()
  await expect.poll(titles).toEqual(['Scaled copy', 'gox_gps'])
  const gps = await page.request.get(`/places/v1/attachment-exif-gps/${id}`)
  expect(await gps.json()).toMatchObject({ attachment_title: 'Scaled copy' })
  await page.getByRole('button', { name: 'Import location from media' }).click()
  await expect(page.getByText('Location filled in from the photo “Scaled copy”')).toBeVisible()
  expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(SCALED_GPS.latitude, 6)
  await page.getByRole('button', { name: 'Clear location' }).click()
  await expect(page.getByLabel('Latitude')).toHaveValue('')

  await page.getByLabel('Latitude').fill('10')
  await page.getByLabel('Longitude').fill('20')
  await page.getByRole('button', { name: 'Import location from media' }).click()
  const question = page.getByRole('group', { name: 'Replace the location?' })
  await expect(question).toContainText('This post already has a location (10, 20). Replace it with the one from the photo “Scaled copy”')
  await page.screenshot({ path: testInfo.outputPath('editor-replace.png'), fullPage: true })
  await question.getByRole('button', { name: 'Keep current location' }).click()
  await expect(page.getByLabel('Latitude')).toHaveValue('10')
  await expect(page.getByLabel('Longitude')).toHaveValue('20')

  await page.getByRole('button', { name: 'Import location from media' }).click()
  await page.getByRole('group', { name: 'Replace the location?' }).getByRole('button', { name: 'Replace location' }).click()
  await expect(page.getByText('Location filled in from the photo “Scaled copy”')).toBeVisible()
  expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(SCALED_GPS.latitude, 6)
  expect(Number(await page.getByLabel('Longitude').inputValue())).toBeCloseTo(SCALED_GPS.longitude, 6)
  await save(page)
  await page.reload()
  expect(Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(SCALED_GPS.latitude, 6)
  expect(Number(await page.getByLabel('Longitude').inputValue())).toBeCloseTo(SCALED_GPS.longitude, 6)
})

test('coordinates out of range are refused beside their fields, and nothing is saved', async ({ page }) => {
  const id = await createPost(page, uniqueTitle('Out of range'))
  const latitude = page.getByLabel('Latitude')
  await latitude.fill('95')
  await page.getByLabel('Longitude').fill('-181')
  await page.getByLabel('Longitude').blur()
  await expect(page.locator('#post-latitude-error')).toHaveText(/must be between -90 and 90/)
  await expect(page.locator('#post-longitude-error')).toHaveText(/must be between -180 and 180/)
  await expect(latitude).toHaveAttribute('aria-invalid', 'true')
  await expect(latitude).toHaveAttribute('aria-describedby', /post-latitude-error/)
  await page.getByLabel('Title').fill('')
  await saveButton(page).click()
  await expect(page.locator('.form-error')).toHaveText('Please correct the fields marked. Nothing was saved.')
  await expect(page.locator('#post-title-error')).toHaveText(/is required/)
  await expect(page.getByLabel('Title'), 'the keyboard is taken to the first field marked').toBeFocused()
  await expect(page.locator('.location-marker')).toHaveCount(0)

  // Only a latitude is half a location.
  await latitude.fill('45')
  await page.getByLabel('Longitude').fill('')
  await page.getByLabel('Title').fill('Half a location')
  await saveButton(page).click()
  await expect(page.locator('#post-longitude-error')).toHaveText(/is required with a latitude/)

  await page.reload()
  await expect(page.getByLabel('Latitude')).toHaveValue('')
  await expect(page.getByLabel('Title')).not.toHaveValue('Half a location')
  void id
})

test('the map: a click puts the location, and the keyboard alone can type and save one', async ({ page }) => {
  const id = await createPost(page, uniqueTitle('Keyboard'))
  const map = page.locator('.location-map.leaflet-container')
  await expect(map).toBeVisible()
  // The map opens on the whole world around 20° N, 0°: its middle is about there.
  await map.click({ position: { x: (await map.boundingBox())!.width / 2, y: (await map.boundingBox())!.height / 2 } })
  await expect.poll(async () => Number(await page.getByLabel('Latitude').inputValue())).toBeCloseTo(20, 0)
  await expect.poll(async () => Math.abs(Number(await page.getByLabel('Longitude').inputValue()))).toBeLessThan(1)
  await expect(page.locator('.location-marker')).toHaveCount(1)

  await page.getByLabel('Latitude').focus()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('35.6586')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Longitude')).toBeFocused()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type('139.7454')
  await page.keyboard.press('Enter') // submits the form: Save
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await expect(page.locator('.location-marker')).toHaveAttribute('title', 'Location marker at 35.6586, 139.7454')
  await page.reload()
  await expect(page.getByLabel('Latitude')).toHaveValue('35.6586')
  await expect(page.getByLabel('Longitude')).toHaveValue('139.7454')
  void id
})

test('categories: pick one, create one, and filter the list by them', async ({ page }) => {
  const title = uniqueTitle('Categorised')
  const id = await createPost(page, title)
  await page.getByLabel('Find a category').fill('Osaka')
  await page.getByRole('checkbox', { name: 'Asia > Japan > Osaka' }).check()
  const created = uniqueTitle('Test places')
  await page.getByLabel('New category').fill(`Asia > ${created}`)
  await page.getByLabel('New category').press('Enter')
  const chosen = page.getByRole('list', { name: 'Chosen categories' })
  await expect(chosen).toContainText('Asia > Japan > Osaka')
  await expect(chosen).toContainText(`Asia > ${created} (new)`)
  await page.getByLabel('Slug').fill('')
  await save(page)
  await expect(page.getByLabel('Slug')).not.toHaveValue('')
  await page.reload()
  await expect(chosen).toContainText('Asia > Japan > Osaka')
  await expect(chosen).toContainText(`Asia > ${created}`)
  await expect(chosen).not.toContainText('(new)')

  // The list: search, and the categories (with their descendants) as filters.
  await page.goto('/admin')
  await page.getByLabel('Search titles').fill(title)
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: `Asia > ${created}` })
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByRole('row')).toHaveCount(2)
  await expect(page.getByRole('link', { name: title, exact: true })).toHaveAttribute('href', `/admin/posts/${id}`)
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: 'Asia' })
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByRole('link', { name: title, exact: true })).toBeVisible()
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: 'Europe' })
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.getByText('No posts you may edit match.')).toBeVisible()
})

test('the posts list: search, status and type filters, pages, and whether each post has a location', async ({ page }) => {
  const title = uniqueTitle('Listed')
  await createPost(page, title)
  await page.goto(`/admin?q=${encodeURIComponent(title)}`)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toContainText('Draft')
  await expect(row.locator('.col-location')).toHaveText('No')
  await page
    .getByRole('navigation', { name: 'Posts by status' })
    .getByRole('link', { name: /^Published/ })
    .click()
  await expect(page.getByText('No posts you may edit match.')).toBeVisible()

  // The demo's 40 published museums, 20 a page. Tests running beside this one publish posts, which would shift the pages
  // of an unfiltered list between its two reads; none writes to Museums.
  await page.goto('/admin?type=post&status=publish')
  await page.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: 'Museums' })
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/category=\d+/)
  const rows = page.getByRole('row')
  await expect(rows).toHaveCount(21)
  for (const cells of await page.locator('tbody tr').all()) {
    await expect(cells.locator('.col-type')).toHaveText('post')
    await expect(cells.locator('.col-status')).toHaveText('Published')
  }
  const firstPage = await page.locator('tbody tr td.col-title').allTextContents()
  await page.getByRole('link', { name: 'Next →' }).click()
  await expect(page).toHaveURL(/page=2/)
  await expect(page.getByText('page 2 of 2')).toBeVisible()
  const secondPage = await page.locator('tbody tr td.col-title').allTextContents()
  expect(secondPage.some((t) => firstPage.includes(t))).toBe(false)
})

test('photos dropped on the page are uploaded; Move to Trash keeps the post and its photos, with Undo; deleting it from the Trash removes both', async ({
  page,
}) => {
  const title = uniqueTitle('To trash')
  const id = await createPost(page, title)
  await dropPhotos(page, 'exr_noexif.jpg', 'gox_gps.jpg')
  await expect(page.getByRole('list', { name: 'Photos, in order' }).getByRole('img')).toHaveCount(2)
  const src = await page.getByRole('img', { name: 'exr_noexif' }).getAttribute('src')
  await expect(page.getByRole('button', { name: /for good/ }), 'no permanent delete in the editor').toHaveCount(0)
  await page.getByRole('button', { name: 'Move to Trash' }).click()
  await page.waitForURL(new RegExp(`/admin\\?trashed=${id}$`))
  await expect(page.getByText('Moved to Trash.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Undo' }).or(page.getByRole('link', { name: 'Undo' }))).toBeVisible()
  const response = await page.goto(`/admin/posts/${id}`)
  expect(response?.status(), 'a trashed post still opens for its editor').toBe(200)
  await expect(page.getByLabel('Status')).toHaveValue('trash')
  expect((await page.request.get(src!)).status()).toBe(200)

  // Deleting for good is done in the Trash view: the post and its photos go.
  await page.goto(`/admin?status=trash&q=${encodeURIComponent(title)}`)
  await page.getByRole('button', { name: `Delete “${title}” permanently` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Delete permanently' }).click()
  await expect(page.getByText('The Trash is empty.')).toBeVisible()
  expect((await page.request.get(src!)).status()).toBe(404)
})
