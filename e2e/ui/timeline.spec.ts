import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Page, TestInfo } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { expect, test } from '../support/test'

// The map's timeline (issue 53, places in time) in real Chromium, on the ui server's demo places (published 2019 to
// 2026, in UTC, the site's zone here): a bar per year of the places in view; a year chosen by a click, years by a drag,
// days typed; the list and the markers follow, and the address, Share and a reload keep the days.

type DemoFeature = { geometry: unknown; properties: { type?: string; status?: string; geo_public?: boolean; date?: string } }
const demo: DemoFeature[] = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'prisma', 'demo', 'places.geojson'), 'utf8')).features
const demoIn = (year: string) =>
  demo.filter(
    (f) =>
      f.geometry &&
      (f.properties.type ?? 'post') === 'post' &&
      (f.properties.status ?? 'publish') === 'publish' &&
      f.properties.geo_public !== false &&
      f.properties.date?.startsWith(year),
  ).length

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

const bars = (page: Page) => page.getByRole('group', { name: /Places in view per year/ }).getByRole('button')
const bar = (page: Page, year: string) => page.getByRole('button', { name: new RegExp(`^${year}: \\d+ place`) })
const count = (page: Page) => page.locator('.place-count')
const from = (page: Page) => page.getByLabel('From', { exact: true })
const to = (page: Page) => page.getByLabel('To', { exact: true })

async function openMap(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`)
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
}

/** How many places a bar says it holds. */
async function barCount(page: Page, year: string): Promise<number> {
  return Number((await bar(page, year).getAttribute('aria-label'))!.match(/: ([\d,]+) place/)![1]!.replace(/,/g, ''))
}

/** The places the markers draw: each cluster's count, each place 1. */
async function drawn(page: Page): Promise<number> {
  return page.evaluate(() => [...document.querySelectorAll('.leaflet-marker-icon')].reduce((sum, marker) => sum + Number(marker.textContent?.trim() || 1), 0))
}

async function keep(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path: file })
  await testInfo.attach(name, { path: file, contentType: 'image/png' })
}

test('a year chosen on the timeline: the list, the markers and the address follow; Any time undoes it', async ({ page }, testInfo) => {
  await openMap(page)
  await expect(bars(page).first()).toBeVisible()
  expect(await bars(page).count()).toBeGreaterThanOrEqual(8)
  const places2021 = await barCount(page, '2021')
  expect(places2021, 'the demo places of 2021 (and any another spec added)').toBeGreaterThanOrEqual(demoIn('2021'))
  await keep(page, testInfo, 'timeline')

  await bar(page, '2021').click()
  await expect(page).toHaveURL(/after=2021-01-01&before=2021-12-31/)
  await expect(count(page)).toHaveText(new RegExp(`^${places2021} places in view.*, published 2021-01-01 to 2021-12-31\\.$`))
  await expect(bar(page, '2021')).toHaveAttribute('aria-pressed', 'true')
  await expect(bar(page, '2022')).toHaveAttribute('aria-pressed', 'false')
  await expect(from(page)).toHaveValue('2021-01-01')
  await expect(to(page)).toHaveValue('2021-12-31')
  // Every place listed was published in 2021; the markers draw that many places.
  const dates = await page.locator('.place-list time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')!))
  expect(dates.length).toBe(Math.min(places2021, 50))
  for (const date of dates) expect(date.slice(0, 4)).toBe('2021')
  await expect.poll(() => drawn(page)).toBe(places2021)
  await keep(page, testInfo, 'timeline-2021')

  // The same year again: any time.
  await bar(page, '2021').click()
  await expect(page).not.toHaveURL(/after=/)
  await bar(page, '2023').click()
  await expect(page).toHaveURL(/after=2023-01-01&before=2023-12-31/)
  await page.getByRole('button', { name: 'Any time' }).click()
  await expect(page).not.toHaveURL(/after=|before=/)
  await expect(from(page)).toHaveValue('')
  await expect(count(page)).not.toContainText('published')
})

test('a range dragged across the bars, and days typed', async ({ page }, testInfo) => {
  await openMap(page)
  const [start, end] = [await bar(page, '2020').boundingBox(), await bar(page, '2022').boundingBox()]
  await page.mouse.move(start!.x + start!.width / 2, start!.y + start!.height - 2)
  await page.mouse.down()
  await page.mouse.move(start!.x + start!.width * 1.5, start!.y + start!.height - 2, { steps: 3 })
  await page.mouse.move(end!.x + end!.width / 2, end!.y + end!.height - 2, { steps: 5 })
  // While dragging, the bars of the range are marked.
  await expect(bar(page, '2021')).toHaveClass(/is-chosen/)
  await page.mouse.up()
  await expect(page).toHaveURL(/after=2020-01-01&before=2022-12-31/)
  const total = (await barCount(page, '2020')) + (await barCount(page, '2021')) + (await barCount(page, '2022'))
  await expect(count(page)).toHaveText(new RegExp(`^${total} places in view`))
  await keep(page, testInfo, 'timeline-dragged')

  await from(page).fill('2023-03-01')
  await to(page).fill('2023-03-31')
  await expect(page).toHaveURL(/after=2023-03-01&before=2023-03-31/)
  await expect(count(page)).toContainText('published 2023-03-01 to 2023-03-31')
  // A first day past the last moves the last: never an empty range.
  await from(page).fill('2023-05-01')
  await expect(to(page)).toHaveValue('2023-05-01')
  await expect(page).toHaveURL(/after=2023-05-01&before=2023-05-01/)
})

test('the days in the address: a reload, Share and /embed keep them; the keyboard chooses a year', async ({ page }, testInfo) => {
  await openMap(page, '?after=2024-01-01&before=2024-12-31')
  await expect(from(page)).toHaveValue('2024-01-01')
  await expect(bar(page, '2024')).toHaveAttribute('aria-pressed', 'true')
  const places2024 = await barCount(page, '2024')
  await expect(count(page)).toHaveText(new RegExp(`^${places2024} places in view`))

  await page.getByRole('button', { name: 'Share' }).click()
  expect(await page.getByLabel('Link', { exact: true }).inputValue()).toMatch(/after=2024-01-01&before=2024-12-31/)
  expect(await page.getByLabel('Embed on your site').inputValue()).toMatch(/after=2024-01-01&amp;before=2024-12-31/)
  await page.keyboard.press('Escape')

  // One Tab stop for the bars, the chosen year's; arrows move between them, Enter chooses.
  await page.getByRole('link', { name: 'Skip the list, to the map' }).focus()
  await page.keyboard.press('Tab')
  await expect(bar(page, '2024')).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(bar(page, '2025')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/after=2025-01-01&before=2025-12-31/)
  expect(await bars(page).evaluateAll((buttons) => buttons.filter((b) => b.getAttribute('tabindex') === '0').length)).toBe(1)
  expect(await axeViolations(page)).toEqual([])

  // /embed, which has no timeline, shows the days of its address.
  await page.goto('/embed?after=2024-01-01&before=2024-12-31&zoom=1&lat=20&lng=0')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expect.poll(() => drawn(page)).toBe(places2024)
  await keep(page, testInfo, 'embed-2024')
})
