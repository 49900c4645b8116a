import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { ExifTool } from 'exiftool-vendored'
import { importMedia, importPosts, places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { photo, signIn } from '../support/ui-admin'
import { uiUser } from '../support/users'

// A photo placed by its time on a GPS track (`places locate --from-track`, docs/trips.md), as an editor then finds it:
// the post at the photo's point, and the photo said to be placed from a track, not GPS of its own.

let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

test('a photo without GPS placed from a track: the editor sees where, and that it came from the track', async ({ page }, testInfo) => {
  test.slow() // ExifTool, an import, a photo stored and the command's run before the browser starts
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-track-'))
  try {
    // A real phone photo, its GPS removed, taken (by its EXIF) when the walk of cerknicko-jezero.gpx passed its 31st point.
    const walkPhoto = path.join(dir, 'lake-walk.jpg')
    await copyFile(photo('mei_Apple iPhone 4.jpg'), walkPhoto)
    const exiftool = new ExifTool({ maxProcs: 1 })
    await exiftool.write(
      walkPhoto,
      { DateTimeOriginal: '2010:08:05 16:33:48', OffsetTimeOriginal: '+02:00' },
      { writeArgs: ['-overwrite_original', '-gps:all='] },
    )
    await exiftool.end()
    const title = `Lake walk ${runId()}`
    // A post type of the spec's own: the command works on it alone, and no other spec's photos are placed.
    const [id] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, type: 'tracktest' } }], uiUser('editor').email)
    await importMedia(server, id!, [walkPhoto])
    const track = path.join('test', 'fixtures', 'tracks', 'cerknicko-jezero.gpx')
    expect(await places(server, 'locate', '--from-track', track, '--post-type', 'tracktest')).toMatch(/^Placed 1 photo\.$/m)

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
