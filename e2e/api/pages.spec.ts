import { createUser, importPosts, runId } from '../support/places-cli'
import { bulkPosts, fixturePost, fixturePosts, hiddenPosts, isPublicPlace, type Feature } from '../support/places'
import { expect, test } from '../support/test'

// docs/api.md, URLs: properties.url is the absolute public URL of the post's own page, which the app serves.

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

test.describe('what the public sees of a location', () => {
  test('a private location shows neither its point nor its address, in the page or its metadata', async ({ request, baseURL }) => {
    const hidden = fixturePosts.filter((p) => p.status === 'publish' && !p.geoPublic && p.coordinates)
    expect(hidden.length).toBeGreaterThan(0)
    for (const post of hidden) {
      const html = decodeHtml(await (await request.get(`${baseURL}/${post.type}/${post.slug}`)).text())
      expect(html).toContain(post.title)
      expect(html, `${post.title}: its address`).not.toContain(post.address)
      const [lng, lat] = post.coordinates!
      for (const digits of [lat.toFixed(5), lng.toFixed(5), String(lat), String(lng)]) expect(html, `${post.title}: ${digits}`).not.toContain(digits)
      expect(html).not.toContain('openstreetmap.org/?mlat')
    }
  })

  test('a public location without a point still shows its address', async ({ request, baseURL }) => {
    const post = fixturePosts.find((p) => p.status === 'publish' && p.geoPublic && !p.coordinates && p.address)!
    expect(decodeHtml(await (await request.get(`${baseURL}/${post.type}/${post.slug}`)).text())).toContain(post.address)
  })

  test("the map's category filter lists only categories with public places", async ({ request, baseURL, databaseUrl, uploadsDir }) => {
    const run = runId()
    const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
    const author = `filter-${run}@e2e.test`
    await createUser(server, author, `filter-password-${run}`, 'editor')
    // A post type of its own, whose map is /?post_type=…: the other tests compare the `post` collection with the fixtures.
    const type = `filtertest${run}`
    const point = { type: 'Point' as const, coordinates: [7.44, 46.95] as [number, number] }
    await importPosts(
      server,
      [
        { type: 'Feature', geometry: point, properties: { type, title: `Draft in a secret ${run}`, status: 'draft', categories: [`Draft plans ${run}`] } },
        { type: 'Feature', geometry: point, properties: { type, title: `Hidden in a secret ${run}`, geo_public: false, categories: [`Hidden trips ${run}`] } },
        { type: 'Feature', geometry: point, properties: { type, title: `Public ${run}`, categories: [`Shown ${run} > Bern ${run}`] } },
      ],
      author,
    )
    const html = decodeHtml(await (await request.get(`${baseURL}/?post_type=${type}`)).text())
    expect(html).toContain(`Bern ${run}`)
    expect(html, 'the parent of a category with public places').toContain(`Shown ${run}`)
    expect(html).not.toContain(`Draft plans ${run}`)
    expect(html).not.toContain(`Hidden trips ${run}`)
  })
})

test('pages of post types named like the API get a CSP too', async ({ request, baseURL, databaseUrl, uploadsDir }) => {
  const run = runId()
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const author = `csp-${run}@e2e.test`
  await createUser(server, author, `csp-password-${run}`, 'editor')
  for (const type of ['ogcx', 'healthzone']) {
    await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title: `A ${type} ${run}`, type, slug: `csp-${run}` } }], author)
    const page = await request.get(`${baseURL}/${type}/csp-${run}`)
    expect(page.status()).toBe(200)
    expect(page.headers()['content-security-policy'], type).toMatch(/script-src 'self' 'nonce-/)
  }
})
