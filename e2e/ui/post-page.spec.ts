import { basic } from '../support/auth'
import { axeViolations } from '../support/axe'
import { corpusFile, PHOTOS, uploadOrThrow } from '../support/media'
import { createAppPassword, importPosts, runId } from '../support/places-cli'
import { uiUser } from '../support/users'
import { expect, test } from '../support/test'

// A post's page in real Chromium against the ui server's demo places: the small map with the nearest places, the
// photos, the categories and previous/next links; a private location shows none of the place. Map tiles cannot load
// on these machines; they are blocked anyway, so that the tests mean the same everywhere.

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

test('a post page: map with its place and five nearby places, photos, categories, previous/next; on a phone too', async ({
  page,
  request,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  // Three command lines and three uploads of real photos, each made into its sizes, before the browser starts.
  test.slow()
  const run = runId()
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const admin = uiUser('administrator').email
  const slug = `sainte-chapelle-${run}`
  const [id] = await importPosts(
    server,
    [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [2.345, 48.8554] },
        properties: {
          title: 'Sainte-Chapelle',
          slug,
          date: '2019-06-01T10:00:00Z',
          address: '10 Boulevard du Palais, 75001 Paris',
          categories: [`Chapels ${run}`],
        },
      },
    ],
    admin,
  )
  const authorization = basic(admin, await createAppPassword(server, admin, `post-page-${run}`))
  for (const [file, title] of [
    [PHOTOS.nikon, 'The upper chapel'],
    [PHOTOS.scaled, 'Stained glass'],
    [PHOTOS.samsungNote, 'The spire'],
  ] as const) {
    await uploadOrThrow(request, id!, corpusFile(file), 'photo.jpg', { authorization, title })
  }

  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/post/${slug}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Sainte-Chapelle' })).toBeVisible()
  await expect(page.locator('address')).toHaveText('10 Boulevard du Palais, 75001 Paris')
  // The map, made when it comes near the screen: the place, and one marker per nearby place listed under it.
  await page.locator('.post-map-frame').scrollIntoViewIfNeeded()
  await expect(page.locator('.post-map path.post-map-place')).toHaveCount(1)
  const nearby = page.locator('.post-nearby li a')
  await expect(nearby).toHaveCount(5)
  await expect(page.locator('.post-map path.post-map-nearby')).toHaveCount(5)
  await expect(page.locator('.leaflet-tooltip')).toHaveText('Sainte-Chapelle')
  // The photos: all loaded, the first large.
  const images = page.locator('.post-lead img, .post-gallery img')
  await expect(images).toHaveCount(3)
  for (const image of await images.all()) await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  await expect(page.locator('.post-lead figcaption')).toHaveText('The upper chapel')
  // The lead, the page's largest paint, is announced in the head with the sizes its WebP source offers.
  const preload = page.locator('head link[rel="preload"][as="image"]')
  await expect(preload).toHaveCount(1)
  expect(await preload.getAttribute('imagesrcset')).toBe(await page.locator('.post-lead source[type="image/webp"]').getAttribute('srcset'))
  await expect(preload).toHaveAttribute('fetchpriority', 'high')
  await page.screenshot({ path: test.info().outputPath('post-page.png'), fullPage: true })
  expect(await axeViolations(page), 'axe, a post with photos').toEqual([])

  // A photo opens over the page, never as the bare file: the arrows go through them, Escape gives the focus back.
  const viewer = page.getByRole('dialog', { name: 'Photos' })
  const leadLink = page.locator('.post-lead a')
  const shown = viewer.getByRole('img')
  await leadLink.click()
  await expect(viewer).toBeVisible()
  await expect(page).toHaveURL(`${baseURL}/post/${slug}`)
  await expect(viewer.getByText('Photo 1 of 3')).toBeVisible()
  await expect(shown).toHaveAttribute('alt', 'The upper chapel')
  await page.keyboard.press('ArrowRight')
  await expect(viewer.getByText('Photo 2 of 3')).toBeVisible()
  await expect(shown).toHaveAttribute('alt', 'Stained glass')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(viewer.getByText('Photo 3 of 3')).toBeVisible()
  await expect(shown).toHaveAttribute('alt', 'The spire')
  // Loaded, and no wider than the photo's largest size.
  await expect
    .poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.getBoundingClientRect().width <= img.width))
    .toBe(true)
  await page.screenshot({ path: test.info().outputPath('post-page-photo-viewer.png') })
  expect(await axeViolations(page), 'axe, the photo viewer').toEqual([])
  await page.keyboard.press('Escape')
  await expect(viewer).toBeHidden()
  await expect(leadLink).toBeFocused()
  const spire = page.locator('.post-gallery a').nth(1)
  await spire.click()
  await expect(viewer.getByText('Photo 3 of 3')).toBeVisible()
  await viewer.getByRole('button', { name: 'Close' }).click()
  await expect(viewer).toBeHidden()
  await expect(spire).toBeFocused()

  // A nearby marker opens its place's page.
  const firstNearby = await nearby.first().getAttribute('href')
  await page.locator('.post-map path.post-map-nearby').first().dispatchEvent('click')
  await expect(page).toHaveURL(firstNearby!)
  await page.goBack()

  // The category opens the map filtered by it.
  await page.getByRole('link', { name: `Chapels ${run}` }).click()
  await expect(page).toHaveURL(/\/\?category=\d+$/)
  await expect(page.locator('.place-filter select')).toHaveValue(new URL(page.url()).searchParams.get('category')!)
  await page.goBack()

  // Previous and next by date: each leads to a post page that links back.
  await page.locator('.post-nav-next').click()
  await expect(page.locator('.post-nav-previous')).toHaveAttribute('href', `${baseURL}/post/${slug}`)
  await page.locator('.post-nav-previous').click()
  await expect(page).toHaveURL(`${baseURL}/post/${slug}`)

  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await page.locator('.post-map-frame').scrollIntoViewIfNeeded()
  await expect(page.locator('.post-map path.post-map-place')).toHaveCount(1)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow, 'nothing wider than the phone').toBe(0)
  // Every control a finger taps is at least 44 px: links that stand alone, the map's zoom buttons (links inside a
  // sentence, as the map's attribution, are exempt, as in WCAG's target size).
  const controls = await page
    .locator('.site-header a, .post-page :is(a, button):not(.post-content a, .leaflet-control-attribution a, .photo-viewer *)')
    .evaluateAll((elements) =>
      elements.map((el) => {
        const box = el.getBoundingClientRect()
        return { what: el.outerHTML.slice(0, 80), width: Math.round(box.width), height: Math.round(box.height) }
      }),
    )
  expect(controls.length).toBeGreaterThan(8)
  expect(controls.filter((box) => box.width < 44 || box.height < 44)).toEqual([])
  await page.screenshot({ path: test.info().outputPath('post-page-phone.png'), fullPage: true })
  expect(await axeViolations(page), "axe, at a phone's width").toEqual([])
})

test('a private location: no map, no place, no nearby list, no coordinates', async ({ page, baseURL, databaseUrl, uploadsDir }) => {
  const run = runId()
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const slug = `hidden-garden-${run}`
  await importPosts(
    server,
    [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [2.3364, 48.8462] },
        properties: { title: 'A hidden garden', slug, address: '7 Secret Lane', geo_public: false },
      },
    ],
    uiUser('administrator').email,
  )
  const response = await page.goto(`/post/${slug}`)
  const html = await response!.text()
  await expect(page.getByRole('heading', { level: 1, name: 'A hidden garden' })).toBeVisible()
  for (const absent of ['.post-map-frame', '.leaflet-container', '.post-nearby', '.post-place', 'address']) await expect(page.locator(absent)).toHaveCount(0)
  for (const absent of ['7 Secret Lane', '48.846', '2.336', 'GeoCoordinates', 'geo+json']) expect(html).not.toContain(absent)
  await page.screenshot({ path: test.info().outputPath('post-page-private.png'), fullPage: true })
})

test("a post's content is HTML: headings, lists, quotes, tables and links shown; scripts, handlers and others' images never", async ({
  page,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  const run = runId()
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const slug = `rich-lisbon-${run}`
  const content = [
    '<h2 onclick="alert(1)">Day one</h2>',
    '<p>We arrived at <strong>Santa Apolónia</strong> and took <a href="https://tram.example/28" rel="opener">tram 28</a>.',
    'Then <a href="javascript:alert(2)">this</a>.</p>',
    '<ul><li>Alfama</li><li>Graça</li></ul><blockquote><p>Saudade</p></blockquote>',
    '<table><tr><th>Ticket</th><td>€3</td></tr></table>',
    '<script>alert(3)</script><img src="https://tracker.example/pixel.gif" alt="A tracking pixel" onerror="alert(4)">',
    '<p style="position:fixed;inset:0">Fine print</p><iframe src="https://tracker.example/frame"></iframe>',
  ].join('\n')
  await importPosts(
    server,
    [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-9.1227, 38.7134] }, properties: { title: 'Lisbon by tram', slug, content } }],
    uiUser('administrator').email,
  )
  const dialogs: string[] = []
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  const thirdParty: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('tracker.example')) thirdParty.push(request.url())
  })
  await page.goto(`/post/${slug}`)
  const body = page.locator('.post-content')
  await expect(body.getByRole('heading', { level: 2, name: 'Day one' })).toBeVisible()
  await expect(body.locator('strong')).toHaveText('Santa Apolónia')
  await expect(body.getByRole('listitem')).toHaveText(['Alfama', 'Graça'])
  await expect(body.locator('blockquote')).toHaveText('Saudade')
  await expect(body.getByRole('cell', { name: '€3' })).toBeVisible()
  await expect(body.getByRole('link', { name: 'tram 28' })).toHaveAttribute('rel', 'noopener')
  await expect(body.getByRole('link', { name: 'A tracking pixel' })).toHaveAttribute('href', 'https://tracker.example/pixel.gif')
  await body.getByRole('heading', { name: 'Day one' }).click()
  expect(await body.evaluate((element) => element.querySelectorAll('script, img, iframe, [onclick], [onerror], [style], [href^="javascript"]').length)).toBe(0)
  await expect(body.getByText('Fine print')).toBeVisible()
  expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^Day one We arrived at Santa Apolónia and took tram 28\./)
  await page.screenshot({ path: test.info().outputPath('post-page-rich-content.png'), fullPage: true })
  expect(dialogs, 'no script of the content ran').toEqual([])
  expect(thirdParty, 'nothing was asked of another site').toEqual([])
  expect(await axeViolations(page), 'axe, a post with rich content').toEqual([])
})

test('a video address alone on its line is a card: nothing asked of YouTube until "Load video", then its no-cookie player', async ({
  page,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  const run = runId()
  const slug = `tram-video-${run}`
  const content = 'Our ride on tram 28:\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n\nAnd the same on <a href="https://vimeo.com/76979871">Vimeo</a>.'
  await importPosts(
    { databaseUrl, uploadsDir, baseURL: baseURL! },
    [{ type: 'Feature', geometry: null, properties: { title: 'Tram 28 on film', slug, content } }],
    uiUser('administrator').email,
  )
  const asked: string[] = []
  await page.route(/youtube|vimeo|ytimg/, (route) => {
    asked.push(route.request().url())
    return route.abort('internetdisconnected')
  })
  const response = await page.goto(`/post/${slug}`)
  expect(response!.headers()['content-security-policy']).toContain("frame-src 'self' https://www.youtube-nocookie.com https://player.vimeo.com;")
  const card = page.locator('.post-content .video-card')
  const load = card.getByRole('button', { name: 'Load video from YouTube' })
  await expect(load).toBeVisible()
  await expect(card.getByRole('link', { name: 'watch it on YouTube' })).toHaveAttribute('href', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ')
  await expect(page.locator('.post-content').getByRole('link', { name: 'Vimeo' }), 'a link with words of its own stays a link').toBeVisible()
  await page.screenshot({ path: test.info().outputPath('post-page-video-card.png'), fullPage: true })
  expect(await axeViolations(page), 'axe, a post with a video card').toEqual([])
  expect(asked, 'nothing asked of the video sites before the visitor asks').toEqual([])

  await load.click()
  const player = card.locator('iframe')
  await expect(player).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1')
  await expect(player).toHaveAttribute('title', 'Video from YouTube')
  await expect(player).toBeFocused()
  await expect.poll(() => asked).toContain('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1')
  expect(
    asked.filter((url) => !url.startsWith('https://www.youtube-nocookie.com/')),
    'the no-cookie player only',
  ).toEqual([])
})

test("a title's character references show decoded on its page and in the map's list; the REST route gives it as stored", async ({
  page,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  const run = runId()
  const slug = `lisbon-sintra-${run}`
  const stored = `Three days in Lisbon &amp; Sintra &#8211; ${run}`
  const shown = `Three days in Lisbon & Sintra – ${run}`
  const [id] = await importPosts(
    { databaseUrl, uploadsDir, baseURL: baseURL! },
    [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-9.3903, 38.7916] }, properties: { title: stored, slug } }],
    uiUser('administrator').email,
  )
  await page.goto(`/post/${slug}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(shown)
  await expect(page).toHaveTitle(new RegExp(`^${shown}`))
  const feature = (await (await page.request.get(`/places/v1/geojson/${id}`)).json()) as { properties: { title: string } }
  expect(feature.properties.title, "the contract's title, as WordPress's plugin gives it").toBe(stored)
  await page.goto(`/?search=${encodeURIComponent(run)}`)
  await expect(page.locator('.place-list li a')).toHaveText([shown])
})
