import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import sharp from 'sharp'
import { createRenditions, removeRenditionFiles } from '../../lib/media/renditions'

// The sizes' geometry (lib/media/renditions.ts): 160, 480, 800 and 1,600 px wide, none taller than 1,600, none
// enlarged, none twice; on images made here of every shape. test/media/renditions.test.ts has real photos.

const dir = mkdtempSync(path.join(tmpdir(), 'places-sizes-'))
// Read when the first size is written (lib/config.ts reads the environment once, on first use).
process.env.UPLOADS_DIR = path.join(dir, 'uploads')
after(() => rmSync(dir, { recursive: true, force: true }))

async function sizesOf(width: number, height: number): Promise<string[]> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#4a7' } })
    .png()
    .toBuffer()
  const made = await createRenditions(png, 'image/png', `2026/11/${width}x${height}.png`)
  await removeRenditionFiles(made.map((r) => r.fileName))
  return made.filter((r) => r.format === 'webp').map((r) => `${r.width}x${r.height}`)
}

test('a landscape, a portrait and a square: four widths, the portrait no taller than 1,600', async () => {
  assert.deepEqual(await sizesOf(4000, 3000), ['160x120', '480x360', '800x600', '1600x1200'])
  assert.deepEqual(await sizesOf(3000, 4000), ['160x213', '480x640', '800x1067', '1200x1600'])
  assert.deepEqual(await sizesOf(2000, 2000), ['160x160', '480x480', '800x800', '1600x1600'])
})

test('a very tall image: its height bounds the larger sizes, which would be the same pixels, so it has one', async () => {
  assert.deepEqual(await sizesOf(1000, 4000), ['160x640', '400x1600'])
})

test('a small image is never enlarged: its own size is its last', async () => {
  assert.deepEqual(await sizesOf(600, 300), ['160x80', '480x240', '600x300'])
  assert.deepEqual(await sizesOf(100, 100), ['100x100'])
})
