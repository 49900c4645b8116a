import { gzipSync } from 'node:zlib'
import type { Response } from '@playwright/test'
import { expect, test } from '../support/test'

// The weight of the map page's first load, as the browser fetched it: every script, and every other asset it fetched
// that is not data (the world layer, whatever form it takes), gzipped at level 9 as a server would send them. A size,
// not a timing: the same on every machine. bench/map-browser.mts prints the same figure with the build's manifests.
const BUDGET_BYTES = 250 * 1024

test('the map page loads at most 250 KB of gzipped JavaScript, the world layer included', async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
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
  await page.goto('/')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await page.waitForLoadState('networkidle')
  // The first load ends here: a script fetched later (a chunk of a later interaction) is not of it, and fetching it
  // again could outlive the test.
  page.off('response', onResponse)
  const each = await Promise.all([...sizes].map(async ([url, size]) => [new URL(url).pathname, await size] as const))
  const total = each.reduce((sum, [, size]) => sum + size, 0)
  await test.info().attach('first-load.json', { body: JSON.stringify({ total, each }, null, 2), contentType: 'application/json' })
  expect(each.length).toBeGreaterThan(3)
  expect(total, `first load: ${(total / 1024).toFixed(1)} KB gzipped`).toBeLessThanOrEqual(BUDGET_BYTES)
})
