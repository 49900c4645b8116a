import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'

// The old URLs of posts (WordPress's _wp_old_slug, here from a WordPress export) answer 301 with the current URL in
// Location, as WordPress does (proxy.ts, lib/places/old-slugs.ts); a post that has the slug now keeps its URL, and an
// unpublished post's old URL is a 404 as any unknown one is.

const run = runId()
const slug = (name: string) => `${name}-${run}`
// A post type of this spec's own: its published posts are in no other spec's lists (previous/next, the map).
const TYPE = 'slugtest'
let server: ServerEnv

const oldSlug = (value: string) =>
  `<wp:postmeta><wp:meta_key><![CDATA[_wp_old_slug]]></wp:meta_key><wp:meta_value><![CDATA[${value}]]></wp:meta_value></wp:postmeta>`
const item = (name: string, status: string, ...oldSlugs: string[]) => `
  <item><title><![CDATA[${name}]]></title><guid isPermaLink="false">https://old.example/?p=${name}</guid>
    <wp:post_date><![CDATA[2020-05-01 12:00:00]]></wp:post_date><wp:post_name><![CDATA[${name}]]></wp:post_name>
    <wp:status><![CDATA[${status}]]></wp:status><wp:post_type><![CDATA[${TYPE}]]></wp:post_type>${oldSlugs.map(oldSlug).join('')}</item>`

test.beforeAll(async ({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
  const dir = await mkdtemp(path.join(tmpdir(), 'places-old-slugs-'))
  try {
    const file = path.join(dir, 'site.xml')
    await writeFile(
      file,
      `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version>
${item(slug('lisbon-today'), 'publish', slug('lisbon'), slug('taken'))}
${item(slug('taken'), 'publish')}
${item(slug('москва'), 'publish', slug('moscow'))}
${item(slug('porto'), 'draft', slug('porto-before'))}
</channel></rss>`,
    )
    await places(server, 'import-wxr', file)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})

test('an old slug of a published post: 301 to its current URL, for GET and HEAD', async ({ request }) => {
  for (const method of ['GET', 'HEAD'] as const) {
    const response = await request.fetch(`/${TYPE}/${slug('lisbon')}`, { method, maxRedirects: 0 })
    expect(response.status(), method).toBe(301)
    expect(new URL(response.headers().location!, server.baseURL).href).toBe(`${server.baseURL}/${TYPE}/${slug('lisbon-today')}`)
  }
  const followed = await request.get(`/${TYPE}/${slug('lisbon')}`)
  expect(followed.status()).toBe(200)
  expect(followed.url()).toBe(`${server.baseURL}/${TYPE}/${slug('lisbon-today')}`)
})

test('the target is percent-encoded, and an old slug asked for encoded or not finds it', async ({ request }) => {
  const target = `${server.baseURL}/${TYPE}/${encodeURIComponent(slug('москва'))}`
  const response = await request.get(`/${TYPE}/${slug('moscow')}`, { maxRedirects: 0 })
  expect(response.status()).toBe(301)
  expect(new URL(response.headers().location!, server.baseURL).href).toBe(target)
  expect((await request.get(`/${TYPE}/${encodeURIComponent(slug('moscow'))}`, { maxRedirects: 0 })).status()).toBe(301)
  expect((await request.get(`/${TYPE}/${slug('moscow')}`)).url()).toBe(target)
})

test('a slug that is old for one post and current for another: the current post keeps its URL', async ({ request }) => {
  const response = await request.get(`/${TYPE}/${slug('taken')}`, { maxRedirects: 0 })
  expect(response.status()).toBe(200)
  expect(await response.text()).toContain(slug('taken'))
})

test("a draft's old slug, an old slug under another type, and other methods: no redirect", async ({ request }) => {
  expect((await request.get(`/${TYPE}/${slug('porto-before')}`, { maxRedirects: 0 })).status()).toBe(404)
  expect((await request.get(`/page/${slug('lisbon')}`, { maxRedirects: 0 })).status()).toBe(404)
  expect((await request.get(`/${TYPE}/${slug('nowhere')}`, { maxRedirects: 0 })).status()).toBe(404)
  expect((await request.post(`/${TYPE}/${slug('lisbon')}`, { maxRedirects: 0 })).status()).not.toBe(301)
})
