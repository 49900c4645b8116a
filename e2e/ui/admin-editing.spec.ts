import type { Dialog, Page } from '@playwright/test'
import { expect, test } from '../support/test'
import { createPost, save, saveButton, signIn, uniqueTitle, uploadPhotos } from '../support/ui-admin'

// The post editor as editors expect it from WordPress (README.md, "Editing a post"): no way out loses unsaved work, the autosaved
// copy is offered back, the main button says what saving does, the keyboard reaches Save quickly and saves with
// Ctrl+S, slugs show as they will be, and the type is chosen from the site's.

test.beforeEach(async ({ page }) => {
  await signIn(page, 'editor')
})

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })
}

/** Types into the title as a person does (real key presses: Chromium asks before unloading only after a user's input). */
async function editTitle(page: Page, text: string): Promise<void> {
  await page.getByLabel('Title').click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.type(text)
  await expect(page.getByText('Unsaved changes.')).toBeVisible()
}

/** The next dialog the page opens, answered with `answer`. */
function nextDialog(page: Page, answer: 'accept' | 'dismiss'): Promise<Dialog> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog)
      void (answer === 'accept' ? dialog.accept() : dialog.dismiss())
    })
  })
}

test('unsaved edits: "← All posts" and the header links ask first, and the autosaved copy is offered back', async ({ page }) => {
  // Five loads of the editor, each starting its rich-text editor and map: past 30 s on a busy two-core machine.
  test.slow()
  const id = await createPost(page, uniqueTitle('Guarded'))
  const edited = uniqueTitle('Edited, not saved')
  await editTitle(page, edited)

  // Cancelled: nothing happens, the edit is still there.
  const stay = nextDialog(page, 'dismiss')
  await page.getByRole('link', { name: '← All posts' }).click()
  const asked = await stay
  expect(asked.type()).toBe('confirm')
  expect(asked.message()).toContain('unsaved changes')
  await expect(page).toHaveURL(new RegExp(`/admin/posts/${id}$`))
  await expect(page.getByLabel('Title')).toHaveValue(edited)

  const stayAgain = nextDialog(page, 'dismiss')
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Posts' }).click()
  expect((await stayAgain).type()).toBe('confirm')
  await expect(page).toHaveURL(new RegExp(`/admin/posts/${id}$`))

  // Confirmed: the page goes (asked once, not a second time by the browser), and the copy waits in the browser.
  const leave = nextDialog(page, 'accept')
  await page.getByRole('link', { name: '← All posts' }).click()
  await leave
  await page.waitForURL((url) => url.pathname === '/admin')

  await page.goto(`/admin/posts/${id}`)
  const offer = page.getByRole('group', { name: /There is an autosave of this post/ })
  await expect(offer).toBeVisible()
  await expect(page.getByLabel('Title')).not.toHaveValue(edited)
  await shot(page, 'autosave-offer')
  await offer.getByRole('button', { name: 'Restore the autosaved version' }).click()
  await expect(page.getByLabel('Title')).toHaveValue(edited)
  await expect(page.getByText('Unsaved changes.').or(page.getByText('The autosaved version was restored.'))).toBeVisible()
  await save(page)

  // Saved: the copy is gone, and leaving asks nothing.
  let dialogs = 0
  page.on('dialog', (dialog) => {
    dialogs++
    void dialog.dismiss()
  })
  await page.getByRole('link', { name: '← All posts' }).click()
  await page.waitForURL((url) => url.pathname === '/admin')
  await page.goto(`/admin/posts/${id}`)
  await expect(page.getByLabel('Title')).toHaveValue(edited)
  await expect(page.getByRole('button', { name: 'Restore the autosaved version' })).toHaveCount(0)
  expect(dialogs).toBe(0)
})

test('unsaved edits: a reload asks (beforeunload), and after it the autosave is offered; Dismiss forgets it', async ({ page }) => {
  const title = uniqueTitle('Reloaded')
  const id = await createPost(page, title)
  const edited = uniqueTitle('Typed before a reload')
  await editTitle(page, edited)

  const asked = nextDialog(page, 'accept')
  await page.reload()
  expect((await asked).type()).toBe('beforeunload')
  await expect(page.getByRole('button', { name: 'Restore the autosaved version' })).toBeVisible()
  await expect(page.getByLabel('Title')).toHaveValue(title)
  await page.getByRole('button', { name: 'Dismiss' }).click()
  await expect(page.getByRole('button', { name: 'Restore the autosaved version' })).toHaveCount(0)
  await page.goto(`/admin/posts/${id}`)
  await expect(page.getByLabel('Title')).toHaveValue(title)
  await expect(page.getByRole('button', { name: 'Restore the autosaved version' }), 'dismissed for good').toHaveCount(0)
})

test('unsaved edits: Back to "New post" (within the page: no beforeunload) asks too; cancelled it stays, confirmed the copy is kept', async ({ page }) => {
  const title = uniqueTitle('Going back')
  const id = await createPost(page, title)
  const edited = uniqueTitle('Typed before Back')
  await editTitle(page, edited)

  const stay = nextDialog(page, 'dismiss')
  await page.evaluate(() => window.history.back())
  const asked = await stay
  expect(asked.type()).toBe('confirm')
  expect(asked.message()).toContain('unsaved changes')
  await expect(page).toHaveURL(new RegExp(`/admin/posts/${id}$`))
  await expect(page.getByLabel('Title')).toHaveValue(edited)
  await expect(page.getByText('Unsaved changes.')).toBeVisible()
  await shot(page, 'back-cancelled')

  const leave = nextDialog(page, 'accept')
  await page.evaluate(() => window.history.back())
  await leave
  await expect(page).toHaveURL(/\/admin\/posts\/new$/)
  await expect(page.getByRole('button', { name: 'Create draft' })).toBeVisible()
  await page.goto(`/admin/posts/${id}`)
  await expect(page.getByLabel('Title')).toHaveValue(title)
  await page.getByRole('button', { name: 'Restore the autosaved version' }).click()
  await expect(page.getByLabel('Title')).toHaveValue(edited)
})

test('Ctrl+S saves the post', async ({ page }) => {
  const id = await createPost(page, uniqueTitle('Keyboard save'))
  const edited = uniqueTitle('Saved with Ctrl+S')
  await editTitle(page, edited)
  await page.keyboard.press('ControlOrMeta+s')
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await expect(page.getByText('Unsaved changes.')).toHaveCount(0)
  await page.goto(`/admin/posts/${id}`)
  await expect(page.getByLabel('Title')).toHaveValue(edited)
})

test('the category list is one Tab stop, with the arrow keys, Home, End and Space inside it', async ({ page }) => {
  await createPost(page, uniqueTitle('Tab stops'))
  const boxes = page.getByRole('group', { name: 'Existing categories' }).getByRole('checkbox')
  expect(await boxes.count(), 'the demo has many categories').toBeGreaterThan(20)

  // From the category filter to Save: the list, "New category", Add, "Add tags", then Save.
  const save = saveButton(page)
  const tabsToSave = async (from: string) => {
    await page.getByLabel(from, { exact: true }).focus()
    let presses = 0
    while (!(await save.evaluate((button) => button === document.activeElement)) && presses < 300) {
      await page.keyboard.press('Tab')
      presses++
    }
    return presses
  }
  expect(await tabsToSave('Find a category')).toBe(5)
  // From the title, through the whole form (the date alone is seven stops in Chromium: its parts).
  const fromTitle = await tabsToSave('Title')
  await test.info().attach('tab-stops.json', { body: JSON.stringify({ fromTitleToSave: fromTitle }), contentType: 'application/json' })
  expect(fromTitle).toBeLessThan(40)

  await page.getByLabel('Find a category').focus()
  await page.keyboard.press('Tab')
  await expect(boxes.first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(boxes.nth(1)).toBeFocused()
  await page.keyboard.press('End')
  await expect(boxes.last()).toBeFocused()
  await page.keyboard.press('Home')
  await expect(boxes.first()).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Space')
  await expect(boxes.nth(1)).toBeChecked()
  const name = (await boxes.nth(1).evaluate((box) => box.closest('label')!.textContent)) ?? ''
  await expect(page.getByRole('list', { name: 'Chosen categories' })).toContainText(name)
  // The list keeps its place: Shift+Tab leaves it, Tab comes back to the box last focused.
  await page.keyboard.press('Shift+Tab')
  await expect(page.getByLabel('Find a category')).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(boxes.nth(1)).toBeFocused()
  await shot(page, 'categories-keyboard')
})

test('the main button says what saving does: Save draft, Publish, Schedule, Update; a date years ahead is warned of', async ({ page }) => {
  const id = await createPost(page, uniqueTitle('Scheduling'))
  const status = page.getByLabel('Status')
  const date = page.getByLabel('Date (UTC)')
  await expect(saveButton(page)).toHaveText('Save draft')
  await status.selectOption('publish')
  await expect(saveButton(page)).toHaveText('Publish')

  await date.fill('2999-01-01T10:00:00')
  await expect(saveButton(page)).toHaveText('Schedule')
  await expect(page.getByText('The date is in the future: the post is scheduled')).toBeVisible()
  await expect(page.getByText('This date is more than a year ahead')).toBeVisible()
  await shot(page, 'schedule-far-future')
  await save(page)
  await expect(status, 'stored as the date says: scheduled').toHaveValue('future')
  await expect(saveButton(page)).toHaveText('Update')
  const feature = await page.request.get(`/places/v1/geojson/${id}`)
  expect(feature.status(), 'a scheduled post is not public').toBe(404)

  // Scheduled, with a date that has passed: published.
  await date.fill('2020-05-01T10:00:00')
  await expect(saveButton(page)).toHaveText('Publish')
  await expect(page.getByText('The date has passed: the post is published now.')).toBeVisible()
  await expect(page.getByText('This date is more than a year ahead')).toHaveCount(0)
  await save(page)
  await expect(status).toHaveValue('publish')
  await expect(saveButton(page)).toHaveText('Update')
  await shot(page, 'published-update')
})

test('a contributor’s button submits for review', async ({ page }) => {
  await signIn(page, 'contributor')
  await createPost(page, uniqueTitle('For review'))
  await expect(saveButton(page)).toHaveText('Save draft')
  await page.getByLabel('Status').selectOption('pending')
  await expect(saveButton(page)).toHaveText('Submit for review')
  await shot(page, 'contributor-submit')
  await save(page)
  await expect(saveButton(page)).toHaveText('Update')
})

test('the slug hint shows the cleaned slug as it is typed, and a published post’s new slug is warned of', async ({ page }) => {
  await createPost(page, uniqueTitle('Slugs'))
  const slug = page.getByLabel('Slug')
  const hint = page.locator('#slug-hint')
  await slug.fill('  Héllo, Wörld!  Café ')
  await expect(hint).toContainText('/post/hello-world-cafe')
  await slug.fill('')
  await page.getByLabel('Title').fill('Sensō-ji at night')
  await expect(hint).toContainText('/post/senso-ji-at-night')
  await expect(hint).toContainText('made from the title')

  const wanted = uniqueTitle('first address').toLowerCase().replace(/ /g, '-')
  await slug.fill(wanted)
  await page.getByLabel('Status').selectOption('publish')
  await save(page)
  await expect(page.locator('#slug-warning')).toHaveCount(0)
  await slug.fill(`${wanted}-moved`)
  await expect(page.locator('#slug-warning')).toHaveText(/The old address will redirect to the new one/)
  await expect(slug).toHaveAttribute('aria-describedby', /slug-warning/)
  await shot(page, 'slug-warning')
})

test('Type is a choice of the site’s types, with "New type…"', async ({ page }) => {
  const id = await createPost(page, uniqueTitle('Typed'))
  const type = page.getByLabel('Type', { exact: true })
  await expect(type).toHaveValue('post')
  await expect(type.getByRole('option', { name: 'New type…' })).toHaveCount(1)
  const fresh = `kind-${Date.now().toString(36)}`
  await type.selectOption({ label: 'New type…' })
  await page.getByLabel('New type’s name').fill(fresh)
  await expect(page.locator('#slug-hint')).toContainText(`/${fresh}/`)
  await shot(page, 'new-type')
  await save(page)
  await page.goto(`/admin/posts/${id}`)
  await expect(type).toHaveValue(fresh)
  await expect(page.getByLabel('New type’s name')).toHaveCount(0)

  // The new post form offers it too.
  await page.goto('/admin/posts/new')
  await expect(page.getByLabel('Type', { exact: true }).getByRole('option', { name: fresh, exact: true })).toHaveCount(1)
})

test('after saving: a new category shows by its name, and "Save the post to keep it." goes', async ({ page }) => {
  await createPost(page, uniqueTitle('Created here'))
  const created = uniqueTitle('Fresh places')
  await page.getByLabel('New category').fill(`Asia > ${created}`)
  await page.getByLabel('New category').press('Enter')
  await uploadPhotos(page, 'gox_gps.jpg')
  await page.getByRole('button', { name: 'Import location from media' }).click()
  await expect(page.getByText('Save the post to keep it.')).toBeVisible()
  await save(page)
  const chosen = page.getByRole('list', { name: 'Chosen categories' })
  await expect(chosen).toContainText(`Asia > ${created}`)
  await expect(chosen).not.toContainText('(new)')
  await expect(chosen).not.toContainText('#')
  await expect(page.getByText('Save the post to keep it.')).toHaveCount(0)
  await shot(page, 'saved-new-category')
})

test('the autosaved copy is its author’s: another user of the browser is not offered it, and signing out clears it', async ({ page }) => {
  const title = uniqueTitle('Kept for its author')
  const id = await createPost(page, title)
  await editTitle(page, uniqueTitle('Typed by the editor'))
  const asked = nextDialog(page, 'accept')
  await page.reload()
  await asked
  await expect(page.getByRole('button', { name: 'Restore the autosaved version' })).toBeVisible()

  // An administrator signs in on the same browser: the editor's copy is not theirs to restore.
  await signIn(page, 'administrator', `/admin/posts/${id}`)
  await expect(page.getByLabel('Title')).toHaveValue(title)
  await expect(page.getByRole('button', { name: 'Restore the autosaved version' })).toHaveCount(0)
  const stored = () => page.evaluate(() => Object.keys(window.localStorage).filter((key) => key.startsWith('places:autosave:')))
  expect(await stored(), 'the editor’s copy is still kept, under the editor').toHaveLength(1)

  // Signing out clears every copy this browser holds.
  await page.goto('/signout')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  expect(await stored()).toEqual([])
})
