import { gzipSync } from 'node:zlib'
import type { Page, Response } from '@playwright/test'
import { expect, test } from '../support/test'
import { createPost, signIn, uniqueTitle } from '../support/ui-admin'

// The weight of a page's first load, as the browser fetched it: every script, and every other asset it fetched that
// is not data (the world layer, whatever form it takes), gzipped at level 9 as a server would send them. A size, not a
// timing: the same on every machine. bench/map-browser.mts prints the map's figure with the build's manifests.
const MAP_BUDGET_BYTES = 250 * 1024
// The post editor: the rich-text editor (Tiptap) and the location picker's map come with it (BENCHMARKS.md).
const EDITOR_BUDGET_BYTES = 420 * 1024

/** The gzipped bytes of what `load` makes the page fetch until it is ready and the network idle, attached as `name`. */
async function firstLoad(page: Page, name: string, load: () => Promise<void>): Promise<number> {
  const sizes = new Map<string, Promise<number>>()
  const onResponse = (response: Response) => {
    const type = response.request().resourceType()
    const url = new URL(response.url())
    const isData = url.pathname.startsWith('/places/') || type === 'document' || type === 'image' || type === 'stylesheet'
    if (type === 'script' || (!isData && (type === 'fetch' || type === 'xhr' || type === 'other'))) {
      // Fetched again rather than read from the response: the world layer's worker is gone once it has answered, and
      // its responses with it.
      sizes.set(
        url.href,
        page.request.get(url.href).then(async (again) => gzipSync(await again.body(), { level: 9 }).length),
      )
    }
  }
  page.on('response', onResponse)
  await load()
  await page.waitForLoadState('networkidle')
  // The first load ends here: a script fetched later (a chunk of a later interaction) is not of it, and fetching it
  // again could outlive the test.
  page.off('response', onResponse)
  const each = await Promise.all([...sizes].map(async ([url, size]) => [new URL(url).pathname, await size] as const))
  const total = each.reduce((sum, [, size]) => sum + size, 0)
  await test.info().attach(name, { body: JSON.stringify({ total, each }, null, 2), contentType: 'application/json' })
  expect(each.length).toBeGreaterThan(3)
  return total
}

test('the map page loads at most 250 KB of gzipped JavaScript, the world layer included', async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
  const total = await firstLoad(page, 'first-load.json', async () => {
    await page.goto('/')
    await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  })
  expect(total, `first load: ${(total / 1024).toFixed(1)} KB gzipped`).toBeLessThanOrEqual(MAP_BUDGET_BYTES)
})

test('the post editor loads at most 420 KB of gzipped JavaScript, its rich-text editor and map included', async ({ page, browser, baseURL }) => {
  await signIn(page, 'editor')
  const id = await createPost(page, uniqueTitle('Weighed'))
  // The session in a context of its own: what a browser with nothing cached fetches to open the editor.
  const context = await browser.newContext({ baseURL, storageState: await page.context().storageState() })
  const fresh = await context.newPage()
  await fresh.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
  const total = await firstLoad(fresh, 'editor-first-load.json', async () => {
    await fresh.goto(`/admin/posts/${id}`)
    await expect(fresh.getByRole('textbox', { name: 'Content' })).toBeVisible()
  })
  await context.close()
  expect(total, `editor first load: ${(total / 1024).toFixed(1)} KB gzipped`).toBeLessThanOrEqual(EDITOR_BUDGET_BYTES)
})
