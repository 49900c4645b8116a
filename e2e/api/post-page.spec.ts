import { allPosts, fixturePost, fixturePosts, hiddenPosts, isPublicPlace, type FixturePost } from '../support/places'
import { expect, test } from '../support/test'

// A post's page beyond its text (README, "The post page"): nearby places, categories, previous/next, the metadata for
// the web, and what a private location leaves out of all of them. Expected values come from the fixtures.

const pageOf = (post: FixturePost) => `/${post.type}/${encodeURIComponent(post.slug)}`

/** The great-circle distance in degrees of arc, as an independent check of the index's answer. */
function arc([lng1, lat1]: [number, number], [lng2, lat2]: [number, number]): number {
  const r = Math.PI / 180
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2
  return 2 * Math.asin(Math.sqrt(h))
}

const byDate = (a: FixturePost, b: FixturePost) => a.date - b.date || a.id - b.id

function section(html: string, className: string): string {
  const start = html.indexOf(`class="${className}"`)
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start))
}

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))

function jsonLdOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)
  expect(match, 'a JSON-LD script').not.toBeNull()
  return JSON.parse(match![1]!) as Record<string, unknown>
}

function meta(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[+]/g, '\\+')}" content="([^"]*)"`).exec(html)
  return match?.[1]
}

function alternate(html: string, type: string): string | undefined {
  const match = new RegExp(`<link rel="alternate" type="${type.replace(/[+]/g, '\\+')}" href="([^"]+)"`).exec(html)
  return match?.[1]?.replace(/&amp;/g, '&')
}

test.describe('the post page', () => {
  test('lists the five nearest public places of its type, nearest first, each linking to its page', async ({ request, baseURL }) => {
    for (const title of ['Eiffel Tower', 'Tokyo Tower', 'North Pole']) {
      const post = fixturePost(title)
      const expected = allPosts
        .filter((p) => p.type === post.type && p.id !== post.id && isPublicPlace(p))
        .map((p) => ({ p, d: arc(post.coordinates!, p.coordinates!) }))
        .sort((a, b) => a.d - b.d || a.p.id - b.p.id)
        .slice(0, 5)
        .map(({ p }) => `${baseURL}${pageOf(p)}`)
      const html = await (await request.get(pageOf(post))).text()
      expect(hrefs(section(html, 'post-nearby')), title).toEqual(expected)
    }
  })

  test("links its categories to the map filtered by each; a landmark's to the landmarks' map", async ({ request }) => {
    // The fixture's categories get ids in order of first appearance: Europe 1, France 2, Paris 3 (scripts/e2e-server.mts).
    const orsay = await (await request.get(pageOf(fixturePost("Musée d'Orsay")))).text()
    expect(hrefs(/<ul class="post-categories".*?<\/ul>/s.exec(orsay)![0]).sort()).toEqual(['/?category=2', '/?category=3'])
    const landmark = await (await request.get(pageOf(fixturePost('Eiffel Tower (landmark)')))).text()
    expect(hrefs(/<ul class="post-categories".*?<\/ul>/s.exec(landmark)![0])).toEqual(['/?post_type=landmark&category=3'])
  })

  test('links the previous and next published posts of its type by date, then id', async ({ request, baseURL }) => {
    const published = allPosts.filter((p) => p.type === 'post' && p.status === 'publish').sort(byDate)
    // Louvre and Orsay share their date: the id decides. Posts the other specs import are newer than all of these.
    for (const title of ['Louvre Museum', "Musée d'Orsay", 'Brandenburg Gate', 'Null Island']) {
      const at = published.findIndex((p) => p.title === title)
      const html = await (await request.get(pageOf(published[at]!))).text()
      const previous = /<a class="post-nav-previous" href="([^"]+)"/.exec(html)?.[1]
      const next = /<a class="post-nav-next" href="([^"]+)"/.exec(html)?.[1]
      expect(previous, `${title}: previous`).toBe(`${baseURL}${pageOf(published[at - 1]!)}`)
      expect(next, `${title}: next`).toBe(`${baseURL}${pageOf(published[at + 1]!)}`)
    }
  })

  test('carries Open Graph, Twitter card, canonical, JSON-LD Place with GeoCoordinates and its Feature as alternate', async ({ request, baseURL }) => {
    const post = fixturePost('Eiffel Tower')
    const html = await (await request.get(pageOf(post))).text()
    expect(meta(html, 'og:title')).toBe('Eiffel Tower')
    expect(meta(html, 'og:url')).toBe(`${baseURL}${pageOf(post)}`)
    expect(meta(html, 'og:type')).toBe('article')
    expect(meta(html, 'twitter:card')).toBe('summary')
    expect(html).toContain(`<link rel="canonical" href="${baseURL}${pageOf(post)}"`)
    const ld = jsonLdOf(html)
    expect(ld).toMatchObject({ '@context': 'https://schema.org', '@type': 'Place', name: 'Eiffel Tower', url: `${baseURL}${pageOf(post)}` })
    expect(ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: post.coordinates![1], longitude: post.coordinates![0] })
    const feature = await request.get(alternate(html, 'application/geo+json')!)
    expect(feature.status()).toBe(200)
    expect((await feature.json()).properties.id).toBe(post.id)
  })

  test('a hostile title cannot end the JSON-LD script: its < is \\u003c, and it reads back as written', async ({ request }) => {
    const post = fixturePosts.find((p) => p.id === 1006)!
    const html = await (await request.get(pageOf(post))).text()
    const script = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!
    expect(script).not.toContain('<')
    expect(script).toContain('\\u003cscript>')
    expect(jsonLdOf(html).name).toBe(post.title)
  })

  test('a private location shows no map, nearby list, geo metadata or Feature; its page is still there, and embeds as a link', async ({ request }) => {
    const hidden = fixturePosts.filter((p) => p.status === 'publish' && !p.geoPublic && p.coordinates)
    expect(hidden.length).toBeGreaterThan(0)
    for (const post of hidden) {
      const response = await request.get(pageOf(post))
      expect(response.status()).toBe(200)
      const html = await response.text()
      for (const absent of ['post-map', 'post-nearby', 'post-place', 'application/geo+json', 'GeoCoordinates', '"geo"', '"address"']) {
        expect(html, `${post.title}: ${absent}`).not.toContain(absent)
      }
      expect(jsonLdOf(html)).toMatchObject({ '@type': 'Place', name: post.title })
    }
  })
})

test.describe('sitemap and robots.txt', () => {
  test('/sitemap.xml indexes files that list the home page and every published post, and no other', async ({ request, baseURL }) => {
    const index = await request.get('/sitemap.xml')
    expect(index.status()).toBe(200)
    expect(index.headers()['content-type']).toMatch(/^application\/xml/)
    // As the GeoJSON routes: a shared cache asks again soon, so an unpublished post leaves it soon.
    expect(index.headers()['cache-control']).toBe('public, max-age=0, s-maxage=1')
    const indexXml = await index.text()
    expect(indexXml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    const files = [...indexXml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&#38;/g, '&'))
    expect(files[0]).toBe(`${baseURL}/sitemap.xml?page=1`)
    const urls: string[] = []
    for (const file of files) {
      const xml = await (await request.get(file)).text()
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
      const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!)
      expect(locs.length).toBeLessThanOrEqual(50_000)
      urls.push(...locs)
      for (const lastmod of xml.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)) expect(lastmod[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    }
    expect(urls[0]).toBe(`${baseURL}/`)
    const listed = new Set(urls)
    expect(listed.size, 'each URL once').toBe(urls.length)
    for (const post of allPosts.filter((p) => p.status === 'publish')) expect(listed.has(`${baseURL}${pageOf(post)}`), post.title).toBe(true)
    for (const post of hiddenPosts.filter((p) => p.status !== 'publish')) expect(listed.has(`${baseURL}${pageOf(post)}`), post.title).toBe(false)
    expect(await (await request.get('/sitemap.xml?page=1')).text()).toMatch(new RegExp(`<loc>${baseURL}/post/eiffel-tower</loc><lastmod>\\d{4}-`))
  })

  test('a sitemap page that is not a number is a 400; one past the posts is an empty file', async ({ request }) => {
    for (const page of ['0', 'x', '-1', '99999999']) expect((await request.get(`/sitemap.xml?page=${page}`)).status(), page).toBe(400)
    const empty = await (await request.get('/sitemap.xml?page=9000')).text()
    expect(empty).not.toContain('<url>')
  })

  test('robots.txt allows all but the admin and sign-in, and names the sitemap by its absolute URL', async ({ request, baseURL }) => {
    const response = await request.get('/robots.txt')
    expect(response.status()).toBe(200)
    const text = await response.text()
    expect(text).toMatch(/User-Agent: \*/i)
    expect(text).toContain('Allow: /')
    expect(text).toContain('Disallow: /admin')
    expect(text).toContain('Disallow: /signin')
    expect(text).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
  })
})
