import path from 'node:path'
import { axeViolations } from '../support/axe'
import { expect, test } from '../support/test'
import { signIn, uniqueTitle } from '../support/ui-admin'

// Tools → Import at /admin/import (lib/admin/import.ts): a file uploaded with its progress, its summary before
// anything is written, a CSV file's columns chosen, then imported all or nothing.

test('an editor imports a German spreadsheet: refused until its columns are chosen, then one post at its place', async ({ page }, testInfo) => {
  test.slow()
  await signIn(page, 'editor')
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Import' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Import' })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  // As Excel saves it in Germany: Windows-1252, semicolons, decimal commas, headers of its own.
  const title = uniqueTitle('Kölner Dom')
  const csv = `Titel;Breitengrad;Längengrad;Adresse\r\n${title};50,9413;6,9583;Domkloster 4, Köln\r\n`
  await page.getByLabel('File to import').setInputFiles({ name: 'orte.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'latin1') })
  await expect(page.getByRole('heading', { name: 'Before importing orte.csv' })).toBeVisible()
  await expect(page.getByText('This CSV file cannot be imported as it is')).toBeVisible()
  const problems = page.locator('.import-problems li')
  await expect(problems).toHaveText([/no latitude and longitude columns in the header \(Titel, Breitengrad, Längengrad, Adresse\)/, /no title column/])
  await expect(page.getByRole('button', { name: /^Import/ })).toBeDisabled()
  await expect(page.getByLabel('Delimiter')).toHaveValue(';')
  await expect(page.getByLabel('Decimal mark')).toHaveValue('comma')

  for (const [field, column] of [
    ['Title', 'Titel'],
    ['Latitude', 'Breitengrad'],
    ['Longitude', 'Längengrad'],
    ['Address', 'Adresse'],
  ] as const) {
    await page.getByLabel(field, { exact: true }).selectOption(column)
  }
  await page.screenshot({ path: testInfo.outputPath('admin-import-mapping.png'), fullPage: true })
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Read again with these columns' }).click()
  await expect(page.getByText('This CSV file has 1 row: each becomes a post')).toBeVisible()
  await expect(problems).toHaveCount(0)
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue('Titel')

  await page.getByRole('button', { name: 'Import 1 post' }).click()
  await expect(page.getByText('1 post imported.')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('admin-import-done.png') })
  const found = await (await page.request.get(`/places/v1/geojson?search=${encodeURIComponent(title)}`)).json()
  expect(found.features.map((f: { geometry: { coordinates: number[] } }) => f.geometry.coordinates)).toEqual([[6.9583, 50.9413]])
})

test('a WordPress export is summed up before anything is written; an editor may not add its authors; a file that is no map is named as the user knows it', async ({
  page,
}, testInfo) => {
  await signIn(page, 'editor', '/admin/import')
  const before = await (await page.request.get('/places/v1/geojson?search=Colosseum')).json()
  await page.getByLabel('File to import').setInputFiles(path.join('test', 'fixtures', 'wxr', 'site.xml'))
  await expect(page.getByText(/^This WordPress export has 12 posts to import/)).toBeVisible()
  await expect(page.getByText(/Only an administrator may add users/)).toBeVisible()
  await expect(page.getByText(/photos? will not be imported, as their files are not in the export/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Import 12 posts' })).toBeDisabled()
  await page.screenshot({ path: testInfo.outputPath('admin-import-wxr.png'), fullPage: true })
  expect(await axeViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Cancel' }).click()
  expect(await (await page.request.get('/places/v1/geojson?search=Colosseum')).json(), 'the summary wrote nothing').toEqual(before)

  await page.getByLabel('File to import').setInputFiles({ name: 'notes.xml', mimeType: 'text/xml', buffer: Buffer.from('<html><body>no map</body></html>') })
  await expect(page.getByText('The file cannot be read')).toBeVisible()
  await expect(page.locator('.import-problems')).toContainText('notes.xml')
  await expect(page.locator('.import-problems')).not.toContainText('incoming')
})

test('the import is for editors and administrators: an author has no menu item, the page is not found, an upload refused; a cookie from another site counts for nothing', async ({
  page,
  browser,
}, testInfo) => {
  await signIn(page, 'editor')
  const origin = new URL(page.url()).origin
  expect((await page.request.post('/admin/import/file', { data: 'title,lat,lon\n', headers: { Origin: 'https://elsewhere.example' } })).status()).toBe(403)
  const upload = await page.request.post('/admin/import/file', { data: 'title,lat,lon\n', headers: { Origin: origin } })
  expect(upload.status()).toBe(201)
  expect((await upload.json()).token).toMatch(/^[0-9a-f-]{36}$/)

  const context = await browser.newContext({ baseURL: String(testInfo.project.use.baseURL) })
  try {
    const author = await context.newPage()
    await signIn(author, 'author')
    await expect(author.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Posts' })).toBeVisible()
    await expect(author.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Import' })).toHaveCount(0)
    expect((await author.goto('/admin/import'))!.status()).toBe(404)
    expect((await author.request.post('/admin/import/file', { data: 'title,lat,lon\n', headers: { Origin: origin } })).status()).toBe(403)
  } finally {
    await context.close()
  }
})
