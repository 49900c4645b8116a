import { axeViolations } from '../support/axe'
import { readFeed } from '../support/feeds'
import { importPosts, places, type ImportFeature, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { signIn } from '../support/ui-admin'
import { uiUser } from '../support/users'

// Settings → General at /admin/settings (lib/site.ts). On this server of its own: a new name is seen by every page
// of the server, and the ui server's tests expect "Places". Every surface that names the site says the new one at once.

const DEFAULTS = { title: 'Places', tagline: '', language: 'en', timezone: 'UTC' }
let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

test('an administrator renames the site; the pages, feeds, REST index, oEmbed and OGC API say so at once', async ({ page, request }, testInfo) => {
  test.slow()
  await signIn(page, 'administrator')
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
  await expect(page).toHaveTitle('Settings · Admin · Places')
  await expect(page.getByLabel('Site title')).toHaveValue('Places')
  await expect(page.getByLabel('Time zone')).toHaveValue('UTC')
  expect(await axeViolations(page)).toEqual([])
  // The form's notices, not Next.js's route announcer (also an alert).
  const notices = page.locator('main [aria-live]')
  let placeId: number | undefined

  try {
    // A bad language is refused beside its field, and nothing is saved, the good title neither.
    await page.getByLabel('Site title').fill('Not saved')
    await page.getByLabel('Language of the posts').fill('Deutsch')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(notices.getByRole('alert')).toHaveText('Please correct the fields marked.')
    const language = page.getByLabel('Language of the posts')
    await expect(language).toHaveAttribute('aria-invalid', 'true')
    await expect(language).toHaveAccessibleDescription(/must be a language tag, such as en, de or pt-BR/)
    expect(await axeViolations(page)).toEqual([])
    expect((await (await request.get('/wp-json/')).json()).name).toBe('Places')

    const title = 'Wander & <Wonder>'
    await page.getByLabel('Site title').fill(title)
    await page.getByLabel('Tagline').fill('Walks with a camera')
    await language.fill('de_DE')
    await page.getByLabel('Time zone').selectOption('Asia/Tokyo')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(notices.getByRole('status')).toHaveText('Settings saved.')
    await expect(language).not.toHaveAttribute('aria-invalid')
    await expect(language, 'as saved').toHaveValue('de-DE')
    const file = testInfo.outputPath('settings.png')
    await page.screenshot({ path: file, fullPage: true })
    await testInfo.attach('settings', { path: file, contentType: 'image/png' })

    // The admin shows dates in the zone, and takes them in it: the list, the editor, the scheduling hint.
    await page.goto('/admin')
    await expect(page.getByRole('columnheader', { name: 'Date (Asia/Tokyo)' })).toBeVisible()
    const time = page.locator('tbody time').first()
    const tokyo = new Date((await time.getAttribute('datetime'))!).toLocaleString('sv-SE', { timeZone: 'Asia/Tokyo' })
    await expect(time).toHaveText(tokyo.slice(0, 16))
    await page.locator('tbody tr').first().locator('.col-title > a').click()
    const date = page.getByLabel('Date (Asia/Tokyo)')
    // Chromium leaves out seconds that are 0.
    await expect(date).toHaveValue(tokyo.replace(' ', 'T').replace(/:00$/, ''))
    const status = page.getByLabel('Status')
    const saved = await status.inputValue()
    // The editor's text box is made in the browser: once it is there the form is hydrated, and a choice made now is
    // React's (one made before was undone by hydration: the status went back to the saved one, and no hint showed).
    await expect(page.getByRole('textbox', { name: 'Content' })).toBeVisible()
    await status.selectOption('publish')
    await date.fill('2099-01-01T08:30:00')
    await expect(page.locator('#status-hint')).toHaveText('The date is in the future: the post is scheduled, and goes live on 2099-01-01 08:30 Asia/Tokyo.')
    // As it was: nothing to save, nothing to ask before leaving.
    await status.selectOption(saved)
    await date.fill(tokyo.replace(' ', 'T'))
    await expect(page.locator('#status-hint')).toHaveCount(0)

    // The pages: header, <title>, <html lang>, the tagline under the name, the feed's link.
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE')
    await expect(page.locator('.site-header .site-name')).toHaveText(title)
    await expect(page.locator('.site-header')).toContainText('Walks with a camera')
    await expect(page).toHaveTitle(title)
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]').first()).toHaveAttribute('title', title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Walks with a camera')

    const index = await (await request.get('/wp-json/')).json()
    expect(index).toMatchObject({ name: title, description: 'Walks with a camera', timezone_string: 'Asia/Tokyo', gmt_offset: 9 })
    const rss = await readFeed(request, '/feed', 'rss')
    expect(rss.parsed.title).toBe(title)
    expect(rss.parsed.language).toBe('de-DE')
    expect((await readFeed(request, '/feed/atom', 'atom')).parsed.title).toBe(title)
    const oembed = await (await request.get(`/wp-json/oembed/1.0/embed?url=${encodeURIComponent(new URL('/', page.url()).href)}`)).json()
    expect(oembed.provider_name).toBe(title)
    expect((await (await request.get('/ogc?f=json')).json()).title).toBe(title)

    // The map gives a place's date in the site's zone too, in its list and its popup: 20:00 UTC on 9 March is the 10th
    // in Tokyo.
    const postType = `zone-${Date.now().toString(36)}`
    const feature: ImportFeature = {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [139.7454, 35.6586] },
      properties: { title: 'Tokyo Tower', type: postType, date: '2024-03-09T20:00:00Z' },
    }
    ;[placeId] = await importPosts(server, [feature], uiUser('administrator').email)
    await page.goto(`/?post_type=${postType}&zoom=14&lat=35.6586&lng=139.7454`)
    await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
    const item = page.locator('.place-list > li')
    await expect(item.locator('.place-date')).toHaveText('Mar 10, 2024')
    await item.getByRole('button', { name: /Show on map/ }).click()
    await expect(page.locator('.leaflet-popup-content .place-date')).toHaveText('Mar 10, 2024')
  } finally {
    await places(server, 'site', 'set', ...Object.entries(DEFAULTS).flatMap(([name, value]) => [`--${name}`, value]))
    if (placeId !== undefined) await places(server, 'post', 'delete', String(placeId), '--force')
  }
})

test('the settings are for administrators: an editor has no menu item, and the page is not found', async ({ page }) => {
  await signIn(page, 'editor')
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Posts' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Settings' })).toHaveCount(0)
  expect((await page.goto('/admin/settings'))!.status()).toBe(404)
})
