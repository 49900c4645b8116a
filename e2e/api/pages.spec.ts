import { bulkPosts, fixturePost, fixturePosts, hiddenPosts, isPublicPlace, type Feature } from '../support/places'
import { expect, test } from '../support/test'

// DECISIONS.md, URLs: properties.url is the absolute public URL of the post's own page, which the app serves.

/** HTML text with its character references decoded, to look for a title as a reader would see it. */
function decodeHtml(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&')
}

test.describe('properties.url', () => {
  test('every feature of the collections links to a page that answers 200 with its title', async ({ request, baseURL }) => {
    const features: Feature[] = []
    for (const query of ['?posts_per_page=20', '?post_type=landmark']) {
      features.push(...(await (await request.get(`/places/v1/geojson${query}`)).json()).features)
    }
    expect(features.length).toBeGreaterThan(15)
    for (const { properties } of features) {
      expect(properties.url.startsWith(`${baseURL}/`), properties.url).toBe(true)
      const page = await request.get(properties.url)
      expect(page.status(), properties.url).toBe(200)
      expect(page.headers()['content-type'], properties.url).toMatch(/^text\/html/)
      expect(decodeHtml(await page.text()), properties.url).toContain(properties.title)
    }
  })

  test('the page of a title with markup shows it as text: the raw <script> never reaches the HTML', async ({ request }) => {
    const post = fixturePosts.find((p) => p.id === 1006)!
    expect(post.title).toContain('<script>alert(1)</script>')
    const feature = (await (await request.get(`/places/v1/geojson/${post.id}`)).json()) as Feature
    const page = await request.get(feature.properties.url)
    expect(page.status()).toBe(200)
    const html = await page.text()
    expect(html).not.toContain('<script>alert(1)</script>')
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(decodeHtml(html)).toContain(post.title)
    expect(html).not.toContain('<b>&amp;</b>') // the address's markup is text too
  })

  test('a non-ASCII slug gives a working URL', async ({ request }) => {
    const post = fixturePost('Tokyo Tower')
    const feature = (await (await request.get(`/places/v1/geojson/${post.id}`)).json()) as Feature
    expect(decodeURIComponent(new URL(feature.properties.url).pathname)).toBe(`/post/${post.slug}`)
    const page = await request.get(feature.properties.url)
    expect(page.status()).toBe(200)
    expect(decodeHtml(await page.text())).toContain('Tokyo Tower')
  })

  test('a post and a landmark with the same slug have different URLs and pages', async ({ request }) => {
    const post = fixturePost('Eiffel Tower')
    const landmark = fixturePost('Eiffel Tower (landmark)')
    expect(post.slug).toBe(landmark.slug)
    const postUrl = ((await (await request.get(`/places/v1/geojson/${post.id}`)).json()) as Feature).properties.url
    const landmarkUrl = ((await (await request.get(`/places/v1/geojson/${landmark.id}`)).json()) as Feature).properties.url
    expect(postUrl).not.toBe(landmarkUrl)
    expect(decodeHtml(await (await request.get(postUrl)).text())).not.toContain('Eiffel Tower (landmark)')
    expect(decodeHtml(await (await request.get(landmarkUrl)).text())).toContain('Eiffel Tower (landmark)')
  })

  test('a bulk post page is served too', async ({ request, baseURL }) => {
    const post = bulkPosts[0]!
    const page = await request.get(`${baseURL}/post/${post.slug}`)
    expect(page.status()).toBe(200)
    expect(decodeHtml(await page.text())).toContain(post.title)
  })

  test('the pages of unpublished posts (draft, pending, private, future, trash) are 404', async ({ request, baseURL }) => {
    const unpublished = hiddenPosts.filter((p) => p.status !== 'publish')
    expect(unpublished.length).toBeGreaterThanOrEqual(5)
    for (const post of unpublished) {
      const page = await request.get(`${baseURL}/${post.type}/${encodeURIComponent(post.slug)}`)
      expect(page.status(), `${post.status} ${post.type}/${post.slug}`).toBe(404)
      expect(await page.text()).not.toContain(post.title)
    }
  })

  test('a published post has its page even without public geodata', async ({ request, baseURL }) => {
    for (const post of fixturePosts.filter((p) => p.status === 'publish' && !isPublicPlace(p))) {
      const page = await request.get(`${baseURL}/${post.type}/${post.slug}`)
      expect(page.status(), post.title).toBe(200)
      expect(decodeHtml(await page.text())).toContain(post.title)
    }
  })

  test('a page that does not exist is 404', async ({ request, baseURL }) => {
    expect((await request.get(`${baseURL}/post/no-such-post`)).status()).toBe(404)
    expect((await request.get(`${baseURL}/nosuchtype/eiffel-tower`)).status()).toBe(404)
  })
})
