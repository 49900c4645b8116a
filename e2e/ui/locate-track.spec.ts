import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ExifTool } from 'exiftool-vendored'
import { axeViolations } from '../support/axe'
import { importMedia, importPosts, places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { photo, save, signIn } from '../support/ui-admin'
import { uiUser } from '../support/users'

// A photo placed by its time on a GPS track (docs/trips.md): by `places locate --from-track`, as an editor then finds
// it (the post at the photo's point, the photo said to be placed from a track), and by the admin's review on a map.

let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

/**
 * A real phone photo in `dir`, its GPS removed, taken (by its EXIF) when the walk of cerknicko-jezero.gpx passed its
 * 31st point.
 */
async function lakeWalkPhoto(dir: string): Promise<string> {
  const file = path.join(dir, 'lake-walk.jpg')
  await copyFile(photo('mei_Apple iPhone 4.jpg'), file)
  const exiftool = new ExifTool({ maxProcs: 1 })
  await exiftool.write(file, { DateTimeOriginal: '2010:08:05 16:33:48', OffsetTimeOriginal: '+02:00' }, { writeArgs: ['-overwrite_original', '-gps:all='] })
  await exiftool.end()
  return file
}

test('a photo without GPS placed from a track: the editor sees where, and that it came from the track', async ({ page }, testInfo) => {
  test.slow() // ExifTool, an import, a photo stored and the command's run before the browser starts
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-track-'))
  try {
    const walkPhoto = await lakeWalkPhoto(dir)
    const run = runId()
    const title = `Lake walk ${run}`
    // A post type of this run's own: the command works on it alone, and no other spec's or run's photos are placed. A
    // draft: the public map and timeline other specs count stay as they were.
    const type = `track-${run}`
    const [id] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, type, status: 'draft' } }], uiUser('editor').email)
    await importMedia(server, id!, [walkPhoto])
    const track = path.join('test', 'fixtures', 'tracks', 'cerknicko-jezero.gpx')
    expect(await places(server, 'locate', '--from-track', track, '--post-type', type)).toMatch(/^Placed 1 photo\.$/m)

    await signIn(page, 'editor', `/admin/posts/${id}`)
    await expect(page.getByLabel('Latitude')).toHaveValue('45.7701104')
    await expect(page.getByLabel('Longitude')).toHaveValue('14.3560676')
    await expect(page.getByLabel('Address')).toHaveValue(/Slovenia$/)
    const photos = page.getByRole('list', { name: 'Photos, in order' })
    await expect(photos.getByRole('listitem')).toHaveCount(1)
    await expect(photos.getByText('Placed from a track 45.7701104, 14.3560676')).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath('editor-placed-from-track.png'), fullPage: true })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test("the admin's review: a post's photo on its trip's track, seen on the map before it is placed, placed when accepted", async ({ page }, testInfo) => {
  test.slow() // ExifTool, two imports and a photo stored before the browser starts
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-review-'))
  try {
    // The walk's track alone (its waypoints would be posts on other specs' maps), named for this run.
    const tripTitle = `Round the lake ${runId()}`
    const gpx = (await readFile(path.join('test', 'fixtures', 'tracks', 'cerknicko-jezero.gpx'), 'utf8'))
      .replace(/<wpt[\s\S]*?<\/wpt>/g, '')
      .replace(/<trk>\s*<name>[^<]*<\/name>/g, `<trk><name>${tripTitle}</name>`)
    const track = path.join(dir, 'walk.gpx')
    await writeFile(track, gpx)
    await places(server, 'import', track)
    const walkPhoto = await lakeWalkPhoto(dir)
    const title = `By the lake ${runId()}`
    // A type apart from the first test's: the photo placed by hand here would tell its `locate` run the phone's clock.
    const [id] = await importPosts(
      server,
      [{ type: 'Feature', geometry: null, properties: { title, type: `review-${runId()}`, status: 'draft' } }],
      uiUser('editor').email,
    )
    const [photoId] = await importMedia(server, id!, [walkPhoto], 'Lake walk')

    // The editor puts the post on the trip; the editor then offers to place its photos from the trip's track.
    await signIn(page, 'editor', `/admin/posts/${id}`)
    await page.getByLabel('Trip', { exact: true }).selectOption({ label: tripTitle })
    await save(page)
    await page.reload()
    await page.getByRole('link', { name: "Place this post's photos from the trip's track" }).click()

    await expect(page.getByRole('heading', { level: 1, name: `Place photos from “${tripTitle}”` })).toBeVisible()
    await expect(page.getByText('Camera “Apple iPhone 4”: no photo with GPS on the track to check its clock by: taken as right')).toBeVisible()
    const row = page.getByRole('row', { name: /Lake walk/ })
    await expect(row).toContainText('45.7701104, 14.3560676')
    await expect(row).toContainText('taken as the track recorded a point')
    await expect(page.locator('.review-map path.leaflet-interactive')).toHaveCount(1)
    await expect(row.getByRole('checkbox', { name: /Accept “Lake walk”/ })).toBeChecked()
    await page.screenshot({ path: testInfo.outputPath('review-placements.png'), fullPage: true })
    expect(await axeViolations(page), 'axe, the review of placements').toEqual([])

    // The same review of the posts selected in the list: a bulk action, its trip chosen.
    await page.goto(`/admin?q=${encodeURIComponent(title)}`)
    await page.getByRole('checkbox', { name: `Select “${title}”` }).check()
    const bar = page.getByRole('form', { name: 'Bulk actions' })
    await bar.getByLabel('Bulk action').selectOption({ label: 'Place photos from a trip’s track' })
    await bar.getByRole('button', { name: 'Apply' }).click()
    await expect(page.locator('.bulk-actions').getByRole('alert')).toHaveText('Choose the trip whose track places the photos.')
    await bar.getByRole('combobox', { name: 'Trip', exact: true }).selectOption({ label: tripTitle })
    await bar.getByRole('button', { name: 'Apply' }).click()
    await expect(page).toHaveURL(new RegExp(`/admin/trips/\\d+/photos\\?posts=${id}$`))
    await expect(page.getByRole('row', { name: /Lake walk/ })).toContainText('taken as the track recorded a point')

    // Put by hand some 60 m on along the walk (its 37th point): the clock is found from it.
    await page.goto(`/admin/trips/${new URL(page.url()).pathname.split('/')[3]}/photos?posts=${id}&hand=${photoId},45.769613190,14.356229380`)
    await expect(page.getByText(/Camera “Apple iPhone 4”: clock off by [+-]\d\d:\d\d(:\d\d)?, found from the photo placed by hand/)).toBeVisible()
    await expect(row).toContainText('placed by hand')
    await page.getByRole('button', { name: 'Place 1 photo' }).click()
    await expect(page.getByText('Placed 1 photo; set the location of 1 post without one.')).toBeVisible()
    await expect(row).toContainText('there already')

    await page.goto(`/admin/posts/${id}`)
    await expect(page.getByLabel('Latitude')).toHaveValue('45.7696132')
    await expect(page.getByRole('list', { name: 'Photos, in order' }).getByText('Placed by hand 45.7696132, 14.3562294')).toBeVisible()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
