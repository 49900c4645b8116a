import { axeViolations } from '../support/axe'
import { expect, test } from '../support/test'
import { createPost, save, signIn, uniqueTitle, uploadPhotos } from '../support/ui-admin'

// The post editor's Content (docs/content.md): a rich-text editor written with the toolbar, Markdown shortcuts and
// keyboard shortcuts, saved as HTML the post page shows; one textbox for assistive technology, its toolbar one Tab stop.

test.beforeEach(async ({ page }) => {
  await signIn(page, 'editor')
})

test('Content: Markdown shortcuts, Ctrl+B and Ctrl+K, the toolbar; saved as HTML and shown so on the post page, the excerpt its description', async ({
  page,
}) => {
  // Typed key by key, axe on the editor, a save and two pages.
  test.slow()
  const title = uniqueTitle('Lisbon by tram')
  await createPost(page, title)
  const content = page.getByRole('textbox', { name: 'Content' })
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' })

  await content.click()
  await page.keyboard.type('## Getting there')
  await page.keyboard.press('Enter')
  await page.keyboard.type('We took the ')
  await page.keyboard.press('ControlOrMeta+b')
  await page.keyboard.type('tram')
  await expect(toolbar.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('ControlOrMeta+b')
  await page.keyboard.type(' up the hill.')
  await page.keyboard.press('Enter')
  await page.keyboard.type('- Alfama')
  await page.keyboard.press('Enter')
  await page.keyboard.type('Graça')
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')
  await page.keyboard.type('> Saudade')
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')

  // A link by the keyboard: select the word, Ctrl+K, an address; javascript: is refused.
  await page.keyboard.type('Timetable')
  for (let i = 0; i < 'Timetable'.length; i++) await page.keyboard.press('Shift+ArrowLeft')
  await page.keyboard.press('ControlOrMeta+k')
  const address = page.getByLabel('Link address')
  await expect(address).toBeFocused()
  await address.fill('javascript:alert(1)')
  await address.press('Enter')
  await expect(page.getByText(/The address must start with https:\/\/, http:\/\/, mailto: or \//)).toBeVisible()
  await address.fill('https://carris.example/28')
  await address.press('Enter')
  await expect(content.getByRole('link', { name: 'Timetable' })).toHaveAttribute('href', 'https://carris.example/28')
  // Back in the text: tiptap focuses it on the next frame, which must not come after the Title's focus below.
  await expect(content).toBeFocused()

  // The toolbar is one Tab stop after the title; the arrow keys move in it, and Tab goes on to the text.
  await page.getByLabel('Title').focus()
  await page.keyboard.press('Tab')
  const first = toolbar.getByRole('button').first()
  await expect(first).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(toolbar.getByRole('button').nth(1)).toBeFocused()
  await page.keyboard.press('End')
  await expect(toolbar.getByRole('button', { name: 'Redo' })).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(content).toBeFocused()
  await page.screenshot({ path: test.info().outputPath('editor-rich-content.png'), fullPage: true })
  expect(await axeViolations(page), 'axe, the editor with rich content').toEqual([])

  await page.getByLabel('Excerpt').fill('  Tram 28, from Martim Moniz up to the castle.  ')
  await page.getByLabel('Status').selectOption('publish')
  await save(page)
  await page.reload()
  await expect(page.getByLabel('Excerpt')).toHaveValue('Tram 28, from Martim Moniz up to the castle.')
  await expect(content.getByRole('heading', { level: 2, name: 'Getting there' })).toBeVisible()
  await expect(content.locator('strong')).toHaveText('tram')
  await expect(page.getByText('Unsaved changes.'), 'loading the saved HTML changes nothing').toHaveCount(0)

  await page.getByRole('link', { name: 'View the post' }).click()
  const body = page.locator('.post-content')
  await expect(body.getByRole('heading', { level: 2, name: 'Getting there' })).toBeVisible()
  await expect(body.locator('strong')).toHaveText('tram')
  await expect(body.getByRole('listitem')).toHaveText(['Alfama', 'Graça'])
  await expect(body.locator('blockquote')).toHaveText('Saudade')
  // The excerpt, not the content's first words, describes the page.
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Tram 28, from Martim Moniz up to the castle.')
  await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', 'Tram 28, from Martim Moniz up to the castle.')
  const link = body.getByRole('link', { name: 'Timetable' })
  await expect(link).toHaveAttribute('href', 'https://carris.example/28')
  await expect(link).toHaveAttribute('rel', 'noopener')
})

test('Content: HTML pasted from a web page or a word processor keeps its structure and loses its scripts and styles', async ({ page }) => {
  await createPost(page, uniqueTitle('Pasted'))
  const content = page.getByRole('textbox', { name: 'Content' })
  await content.click()
  const html =
    '<meta charset="utf-8"><h1 style="font-family:Calibri">Pasted title</h1><p class="MsoNormal" style="color:red" onclick="alert(1)">Some <b>bold</b> and ' +
    '<span style="font-weight:700">styled</span> text<script>alert(2)</script></p><ul><li>One</li></ul><img src="x" onerror="alert(3)">'
  await content.evaluate((element, pasted) => {
    const data = new DataTransfer()
    data.setData('text/html', pasted)
    data.setData('text/plain', 'Pasted title')
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
  }, html)
  await expect(content.locator('strong, b').first()).toHaveText('bold')
  await expect(content.getByRole('listitem')).toHaveText(['One'])
  expect(await content.evaluate((element) => element.querySelectorAll('script, [style], [onclick], [onerror], h1, .MsoNormal').length)).toBe(0)
  await expect(page.getByText('Unsaved changes.')).toBeVisible()
})

test('Content: a photo of the post from the toolbar, with its alt text and caption; on the post page as its sizes', async ({ page }) => {
  test.slow() // an upload and its sizes, a save and the post page
  await createPost(page, uniqueTitle('Harbour'))
  const content = page.getByRole('textbox', { name: 'Content' })
  const toolbar = page.getByRole('toolbar', { name: 'Formatting' })
  const field = page.getByRole('group', { name: 'Insert a photo' })
  await content.click()
  await page.keyboard.type('We arrived at dawn.')

  await toolbar.getByRole('button', { name: 'Photo' }).click()
  await expect(field.getByRole('status')).toHaveText('This post has no photos yet. Upload them under Photos, below, then insert them here.')
  await field.getByRole('button', { name: 'Cancel' }).click()
  await expect(field).toHaveCount(0)
  await expect(content).toBeFocused()

  // Uploaded after the editor loaded: the field asks for the post's photos as they are now.
  await uploadPhotos(page, 'gox_gps.jpg')
  const photo = toolbar.getByRole('button', { name: 'Photo' })
  await photo.click()
  await expect(photo).toHaveAttribute('aria-expanded', 'true')
  await expect(field.getByRole('radio', { name: 'gox_gps' })).toBeChecked()
  await expect(field.getByRole('radio', { name: 'gox_gps' })).toBeFocused()
  await field.getByLabel('Alt text').fill('Fishing boats moored along a stone quay')
  await field.getByLabel('Caption').fill('The harbour at dawn')
  await page.screenshot({ path: test.info().outputPath('editor-insert-photo.png'), fullPage: true })
  expect(await axeViolations(page, '.content-editor'), 'axe, the Photo field').toEqual([])
  await field.getByLabel('Caption').press('Enter')
  await expect(field).toHaveCount(0)
  const inserted = content.locator('figure')
  await expect(inserted.getByRole('img', { name: 'Fishing boats moored along a stone quay' })).toBeVisible()
  await expect(inserted.locator('figcaption')).toHaveText('The harbour at dawn')
  await expect(content).toBeFocused()

  // Escape closes the field and changes nothing.
  await photo.click()
  await expect(field.getByRole('radio', { name: 'gox_gps' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(field).toHaveCount(0)
  await expect(content.locator('figure')).toHaveCount(1)

  await page.getByLabel('Status').selectOption('publish')
  await save(page)
  await page.getByRole('link', { name: 'View the post' }).click()
  const shown = page.locator('.post-content figure')
  await expect(shown.locator('figcaption')).toHaveText('The harbour at dawn')
  const image = shown.getByRole('img', { name: 'Fishing boats moored along a stone quay' })
  await expect(image).toHaveAttribute('srcset', /\/uploads\/.+ \d+w/)
  await expect(image).toHaveJSProperty('complete', true)
  expect(await image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0)
})

test('Preview shows the form as it is, unsaved, to its editor only: a draft, then a published post, nothing saved', async ({ page, browser, baseURL }) => {
  test.slow()
  const title = uniqueTitle('Sintra')
  await createPost(page, title)
  const slug = await page.getByLabel('Slug').inputValue()
  await page.getByLabel('Title').fill(`${title}, edited`)
  const content = page.getByRole('textbox', { name: 'Content' })
  await content.click()
  await page.keyboard.type('## Pena Palace')
  await page.keyboard.press('Enter')
  await page.keyboard.type('Not saved yet.')

  const opened = page.waitForEvent('popup')
  // Waited for from before the click: the tab may have loaded the preview before its page object is handed over.
  const answered = page.context().waitForEvent('response', (r) => r.url().endsWith(`/post/${slug}?preview=true`) && r.request().resourceType() === 'document')
  await page.getByRole('button', { name: 'Preview' }).click()
  const preview = await opened
  const response = await answered
  expect(response.status()).toBe(200)
  expect(response.headers()['cache-control']).toMatch(/private/)
  expect(response.headers()['cache-control']).toMatch(/no-store/)
  await expect(preview.getByRole('status')).toHaveText(/Preview: the post as its editor now has it/)
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText(`${title}, edited`)
  await expect(preview.locator('.post-content h2')).toHaveText('Pena Palace')
  await expect(preview.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
  await preview.screenshot({ path: test.info().outputPath('preview-draft.png'), fullPage: true })
  expect(await axeViolations(preview), 'axe, a preview').toEqual([])
  await preview.close()

  // Nothing was saved: the editor still has unsaved changes, and the posts list has the title as it was.
  await expect(page.getByText('Unsaved changes.')).toBeVisible()
  const list = await (await page.request.get(`/admin?q=${encodeURIComponent(title)}`)).text()
  expect(list).toContain(title)
  expect(list).not.toContain(`${title}, edited`)

  // Anyone else gets the 404 of no post, signed out or signed in as another author; a published post is shown as published.
  const stranger = await browser.newContext()
  const strangerPage = await stranger.newPage()
  expect((await strangerPage.goto(`${baseURL}/post/${slug}?preview=true`))!.status()).toBe(404)
  expect((await strangerPage.goto(`${baseURL}/post/${slug}`))!.status()).toBe(404)
  await stranger.close()

  // Saved and published: the preview shows the post as saved until a newer preview; the public page never the copy.
  await page.getByLabel('Title').fill(`${title}, published`)
  await page.getByLabel('Status').selectOption('publish')
  await save(page)
  const publicPage = await browser.newContext()
  const visitor = await publicPage.newPage()
  await visitor.goto(`${baseURL}/post/${slug}`)
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`${title}, published`)
  await content.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type(' A later edit, previewed.')
  const again = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Preview' }).click()
  const second = await again
  await expect(second.locator('.post-content')).toContainText('A later edit, previewed.')
  await second.close()
  await visitor.goto(`${baseURL}/post/${slug}?preview=true`)
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`${title}, published`)
  await expect(visitor.locator('.post-content')).not.toContainText('A later edit')
  await expect(visitor.getByRole('status')).toHaveCount(0)
  await publicPage.close()
})
