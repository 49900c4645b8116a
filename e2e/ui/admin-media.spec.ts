import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from '../support/test'
import { createPost, photo, save as savePost, signIn, uniqueTitle, uploadPhotos } from '../support/ui-admin'

// The post editor's photos in real Chromium: a damaged file is refused on its own row, the list is worked by
// keyboard alone (focus stays with the photo acted on; Escape cancels a removal), and a contributor, who may not
// upload (WordPress's upload_files), sees no upload control.

const photos = (page: Page) => page.getByRole('list', { name: 'Photos, in order' })
const titles = (page: Page) =>
  photos(page)
    .getByRole('img')
    .evaluateAll((images) => images.map((image) => image.getAttribute('alt')))
const item = (page: Page, title: string) =>
  photos(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('img', { name: title, exact: true }) })

test.describe('as an editor', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'editor')
  })

  test('a damaged photo’s row says why, and nothing is added; the good one beside it is uploaded', async ({ page }, testInfo) => {
    await createPost(page, uniqueTitle('Damaged upload'))
    const whole = readFileSync(photo('exr_noexif.jpg'))
    await page.locator('.drop-zone input[type=file]').setInputFiles([
      { name: 'broken.jpg', mimeType: 'image/jpeg', buffer: whole.subarray(0, Math.floor(whole.length / 2)) },
      { name: 'gox_gps.jpg', mimeType: 'image/jpeg', buffer: readFileSync(photo('gox_gps.jpg')) },
    ])
    const uploads = page.getByRole('list', { name: 'Uploads' })
    const broken = uploads.getByRole('listitem').filter({ hasText: 'broken.jpg' })
    await expect(uploads.getByRole('listitem').filter({ hasText: 'gox_gps.jpg' })).toContainText('Uploaded')
    // libjpeg's words in brackets, when libvips kept them (docs/api.md, Uploads).
    await expect(broken.getByRole('alert')).toHaveText(
      /^This file is damaged or incomplete: it could not be read as an image( \(premature end of JPEG image\))?\.$/,
    )
    await expect(broken).not.toContainText('Uploaded')
    await expect.poll(() => titles(page)).toEqual(['gox_gps'])
    await page.screenshot({ path: testInfo.outputPath('damaged-upload.png'), fullPage: true })
    await page.reload()
    await expect.poll(() => titles(page), { message: 'nothing was stored for the damaged file' }).toEqual(['gox_gps'])
  })

  test('a photo’s caption and alt text: saved from its row, kept, and shown on the post’s page', async ({ page }, testInfo) => {
    await createPost(page, uniqueTitle('Captioned'))
    await uploadPhotos(page, 'gox_gps.jpg')
    const row = item(page, 'gox_gps')
    await row.getByText('Caption and alt text', { exact: true }).click()
    await page.getByLabel('Caption of photo 1').fill('The harbour at dawn')
    await page.getByLabel('Alt text of photo 1').fill('Fishing boats moored along a stone quay')
    const save = row.getByRole('button', { name: 'Save caption and alt text' })
    await save.click()
    await expect(page.getByRole('status').filter({ hasText: 'The caption and alt text of “gox_gps” are saved.' })).toBeVisible()
    await expect(save).toBeFocused()
    await page.screenshot({ path: testInfo.outputPath('caption-alt.png'), fullPage: true })
    await page.reload()
    // Kept, and shown open: a photo with a caption or alt text shows them.
    await expect(page.getByLabel('Caption of photo 1')).toHaveValue('The harbour at dawn')
    await expect(page.getByLabel('Alt text of photo 1')).toHaveValue('Fishing boats moored along a stone quay')
    await page.getByLabel('Status').selectOption('publish')
    await savePost(page)
    await page.getByRole('link', { name: 'View the post' }).click()
    await expect(page.locator('.post-lead figcaption')).toHaveText('The harbour at dawn')
    await expect(page.locator('.post-lead img')).toHaveAttribute('alt', 'Fishing boats moored along a stone quay')
  })

  test('an iPhone HEIC and a TIFF show as pictures in the list (their JPEG thumbnails), not as broken images', async ({ page }, testInfo) => {
    await createPost(page, uniqueTitle('HEIC preview'))
    const files = ['mei_Issue 487.heic', 'exr_002.tiff']
    await page.locator('.drop-zone input[type=file]').setInputFiles(files.map(photo))
    // A HEIC is decoded (libheif in WebAssembly, about 1.5 s alone) and made into its sizes before the answer.
    const uploads = page.getByRole('list', { name: 'Uploads' })
    for (const name of files) await expect(uploads.getByRole('listitem').filter({ hasText: name })).toContainText('Uploaded', { timeout: 30_000 })
    for (const title of ['mei_Issue 487', 'exr_002']) {
      const image = item(page, title).getByRole('img')
      await expect(image).toHaveAttribute('src', /\/uploads\/renditions\/[0-9a-f]{32}\.jpg$/)
      await image.scrollIntoViewIfNeeded() // loaded lazily
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { message: `${title} decoded` }).toBe(160)
    }
    await page.screenshot({ path: testInfo.outputPath('heic-tiff-previews.png'), fullPage: true })
  })

  test('by keyboard: focus stays on the moved photo’s button, the renamed photo, the next photo after a removal; Escape cancels', async ({
    page,
  }, testInfo) => {
    await createPost(page, uniqueTitle('Keyboard photos'))
    await uploadPhotos(page, 'exr_noexif.jpg', 'gox_gps.jpg', 'gox_gps-2000-scaled.jpg')
    await expect.poll(() => titles(page)).toEqual(['exr_noexif', 'gox_gps', 'gox_gps-2000-scaled'])

    // Down, Down: the second press takes it to the end, where Down is disabled, so focus moves to its Up.
    const down = page.getByRole('button', { name: 'Move “exr_noexif” down' })
    const up = page.getByRole('button', { name: 'Move “exr_noexif” up' })
    await down.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toEqual(['gox_gps', 'exr_noexif', 'gox_gps-2000-scaled'])
    await expect(down).toBeFocused()
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toEqual(['gox_gps', 'gox_gps-2000-scaled', 'exr_noexif'])
    await expect(up).toBeFocused()
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toEqual(['gox_gps', 'exr_noexif', 'gox_gps-2000-scaled'])
    await expect(up).toBeFocused()
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toEqual(['exr_noexif', 'gox_gps', 'gox_gps-2000-scaled'])
    await expect(down, 'at the top, Up is disabled: its Down').toBeFocused()
    await page.screenshot({ path: testInfo.outputPath('after-reorder.png'), fullPage: true })

    // Rename with Enter in the field: the field of the renamed photo, with its new title.
    const field = page.getByLabel('Title of photo 2')
    await field.fill('Harbour at dusk')
    await field.press('Enter')
    await expect(page.getByRole('status').filter({ hasText: 'Renamed to “Harbour at dusk”.' })).toBeVisible()
    await expect(page.getByLabel('Title of photo 2')).toBeFocused()
    await expect(page.getByLabel('Title of photo 2')).toHaveValue('Harbour at dusk')
    // With the Rename button: that button.
    await page.getByLabel('Title of photo 3').fill('Inlet')
    const rename = item(page, 'gox_gps-2000-scaled').getByRole('button', { name: 'Rename' })
    await rename.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toEqual(['exr_noexif', 'Harbour at dusk', 'Inlet'])
    await expect(item(page, 'Inlet').getByRole('button', { name: 'Rename' })).toBeFocused()

    // Remove…: focus on Cancel; Escape closes the question, nothing removed, focus back on Remove….
    const remove = page.getByRole('button', { name: 'Remove “exr_noexif”…' })
    await remove.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('group', { name: 'Remove “exr_noexif”?' }).getByRole('button', { name: 'Cancel' })).toBeFocused()
    await page.screenshot({ path: testInfo.outputPath('confirm-remove.png'), fullPage: true })
    await page.keyboard.press('Escape')
    await expect(page.getByRole('button', { name: 'Remove “exr_noexif” for good' })).toHaveCount(0)
    await expect(remove).toBeFocused()
    await expect.poll(() => titles(page)).toEqual(['exr_noexif', 'Harbour at dusk', 'Inlet'])

    // Removed for good: focus on the next photo's Remove…; the last one's goes to the one before; then the upload control.
    await page.keyboard.press('Enter')
    await page.keyboard.press('Shift+Tab')
    await expect(page.getByRole('button', { name: 'Remove “exr_noexif” for good' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect.poll(() => titles(page)).toEqual(['Harbour at dusk', 'Inlet'])
    await expect(page.getByRole('button', { name: 'Remove “Harbour at dusk”…' })).toBeFocused()

    const removeForGood = async (title: string) => {
      await page.keyboard.press('Enter')
      await page.keyboard.press('Shift+Tab')
      await expect(page.getByRole('button', { name: `Remove “${title}” for good` })).toBeFocused()
      await page.keyboard.press('Enter')
    }
    await page.getByRole('button', { name: 'Remove “Inlet”…' }).focus()
    await removeForGood('Inlet')
    await expect.poll(() => titles(page)).toEqual(['Harbour at dusk'])
    await expect(page.getByRole('button', { name: 'Remove “Harbour at dusk”…' }), 'the last one removed: the one before').toBeFocused()
    await removeForGood('Harbour at dusk')
    await expect(page.getByText('No photos yet.')).toBeVisible()
    await expect(page.locator('.drop-zone input[type=file]'), 'none left: the upload control').toBeFocused()
    await page.screenshot({ path: testInfo.outputPath('after-remove.png'), fullPage: true })
  })
})

test('a contributor’s editor shows no upload control (the server refuses them too: e2e/api/media.spec.ts)', async ({ page }, testInfo) => {
  await signIn(page, 'contributor')
  await createPost(page, uniqueTitle('Contributor photos'))
  await expect(page.getByRole('heading', { name: 'Photos' })).toBeVisible()
  await expect(page.getByText('Your role cannot upload photos')).toBeVisible()
  await expect(page.locator('.drop-zone')).toHaveCount(0)
  await expect(page.locator('input[type=file]')).toHaveCount(0)
  await page.getByRole('heading', { name: 'Photos' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: testInfo.outputPath('contributor-photos.png'), fullPage: true })
})
