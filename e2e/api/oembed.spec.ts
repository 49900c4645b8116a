import { fixturePost, fixturePosts, type FixturePost } from '../support/places'
import { expect, test } from '../support/test'

// GET /wp-json/oembed/1.0/embed?url=… answers as WordPress's oEmbed endpoint does (docs/api.md, "oEmbed").

const ENDPOINT = '/wp-json/oembed/1.0/embed'
const pageOf = (post: FixturePost) => `/${post.type}/${encodeURIComponent(post.slug)}`
const oembed = (params: Record<string, string>) => `${ENDPOINT}?${new URLSearchParams(params).toString()}`

/** An attribute of the <iframe> in an answer's html, decoded. */
function iframeAttribute(html: string, name: string): string {
  const match = new RegExp(`<iframe [^>]*${name}="([^"]*)"`).exec(html)
  expect(match, `${name} in ${html}`).not.toBeNull()
  return match![1]!.replace(/&#38;/g, '&').replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&#60;/g, '<').replace(/&#62;/g, '>')
}

test('a post with a public place: the WordPress shape, a 600 × 338 iframe of its map at zoom 15', async ({ request, baseURL }) => {
  const post = fixturePost('Eiffel Tower')
  const response = await request.get(oembed({ url: `${baseURL}${pageOf(post)}` }))
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^application\/json/)
  expect(response.headers()['access-control-allow-origin']).toBe('*')
  const body = await response.json()
  expect(Object.keys(body).sort()).toEqual([
    'author_name',
    'author_url',
    'height',
    'html',
    'provider_name',
    'provider_url',
    'title',
    'type',
    'version',
    'width',
  ])
  expect(body).toMatchObject({
    version: '1.0',
    type: 'rich',
    provider_name: 'Places',
    provider_url: baseURL,
    // No public surface names a post's author: the account's name may be a login or an email.
    author_name: 'Places',
    author_url: baseURL,
    title: 'Eiffel Tower',
    width: 600,
    height: 338,
  })
  const [lng, lat] = post.coordinates!
  const src = new URL(iframeAttribute(body.html, 'src'))
  expect(src.origin + src.pathname).toBe(`${baseURL}/embed`)
  expect(Object.fromEntries(src.searchParams)).toEqual({ lat: String(lat), lng: String(lng), zoom: '15' })
  expect(iframeAttribute(body.html, 'width')).toBe('600')
  expect(iframeAttribute(body.html, 'title')).toBe('Eiffel Tower')
})

test("a landmark's map is the landmarks' map", async ({ request, baseURL }) => {
  const body = await (await request.get(oembed({ url: `${baseURL}${pageOf(fixturePost('Eiffel Tower (landmark)'))}` }))).json()
  expect(new URL(iframeAttribute(body.html, 'src')).searchParams.get('post_type')).toBe('landmark')
})

test('maxwidth and maxheight: never wider nor higher than asked, 16:9 and at least 200 high otherwise', async ({ request, baseURL }) => {
  const url = `${baseURL}${pageOf(fixturePost('Eiffel Tower'))}`
  const size = async (params: Record<string, string>) => {
    const body = await (await request.get(oembed({ url, ...params }))).json()
    expect(iframeAttribute(body.html, 'width')).toBe(String(body.width))
    expect(iframeAttribute(body.html, 'height')).toBe(String(body.height))
    return [body.width, body.height]
  }
  expect(await size({ maxwidth: '480' })).toEqual([480, 270])
  expect(await size({ maxwidth: '300' })).toEqual([300, 200])
  expect(await size({ maxwidth: '2000' })).toEqual([600, 338])
  expect(await size({ maxwidth: '480', maxheight: '150' })).toEqual([480, 150])
})

test('format=xml is the same answer in XML; any other format, a bad size or no url is a 400', async ({ request, baseURL }) => {
  const url = `${baseURL}${pageOf(fixturePost('Eiffel Tower'))}`
  const xml = await request.get(oembed({ url, format: 'xml' }))
  expect(xml.status()).toBe(200)
  expect(xml.headers()['content-type']).toMatch(/^text\/xml/)
  const text = await xml.text()
  expect(text).toMatch(/^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version>/)
  expect(text).toContain('<title>Eiffel Tower</title>')
  expect(text).toContain('<html>&#60;iframe src=')
  for (const [params, code] of [
    [{ url, format: 'yaml' }, 'rest_invalid_param'],
    [{ url, maxwidth: 'wide' }, 'rest_invalid_param'],
    [{ url, maxheight: '-3' }, 'rest_invalid_param'],
    [{}, 'rest_missing_callback_param'],
  ] as const) {
    const response = await request.get(oembed(params))
    expect(response.status(), JSON.stringify(params)).toBe(400)
    expect((await response.json()).code).toBe(code)
  }
})

test('another site, an unknown page, a draft: all the same 404 oembed_invalid_url', async ({ request, baseURL }) => {
  const draft = fixturePosts.find((p) => p.status === 'draft')!
  const urls = [
    `https://example.com${pageOf(fixturePost('Eiffel Tower'))}`,
    `${baseURL}/post/no-such-post`,
    `${baseURL}/admin`,
    `${baseURL}${pageOf(draft)}`,
    'not a url',
  ]
  for (const url of urls) {
    const response = await request.get(oembed({ url }))
    expect(response.status(), url).toBe(404)
    expect(await response.json(), url).toEqual({ code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } })
  }
})

test('a published post without a public place (private, or no point): a link to its page, nothing of its location', async ({ request, baseURL }) => {
  const hidden = fixturePosts.find((p) => p.status === 'publish' && !p.geoPublic && p.coordinates)!
  const noPoint = fixturePosts.find((p) => p.status === 'publish' && p.geoPublic && !p.coordinates)!
  for (const post of [hidden, noPoint]) {
    for (const format of ['json', 'xml']) {
      const response = await request.get(oembed({ url: `${baseURL}${pageOf(post)}`, format }))
      expect(response.status(), post.title).toBe(200)
      const text = await response.text()
      if (format === 'xml') {
        expect(text).toContain('<type>link</type>')
        expect(text).not.toContain('<html>')
        continue
      }
      const body = JSON.parse(text) as Record<string, unknown>
      expect(body).toEqual({
        version: '1.0',
        type: 'link',
        provider_name: 'Places',
        provider_url: baseURL,
        author_name: 'Places',
        author_url: baseURL,
        title: post.title,
      })
      if (post.coordinates) for (const n of post.coordinates) expect(text).not.toContain(String(n).slice(0, 5))
    }
  }
})

test('a post URL with a trailing slash is the same post', async ({ request, baseURL }) => {
  const post = fixturePost('Eiffel Tower')
  const [plain, slashed] = await Promise.all(
    [`${baseURL}${pageOf(post)}`, `${baseURL}${pageOf(post)}/`].map(async (url) => (await request.get(oembed({ url }))).json()),
  )
  expect(slashed).toEqual(plain)
})

test('a hostile title is escaped in html, and reads back as written in title', async ({ request, baseURL }) => {
  const post = fixturePosts.find((p) => p.id === 1006)!
  const body = await (await request.get(oembed({ url: `${baseURL}${pageOf(post)}` }))).json()
  expect(body.title).toBe(post.title)
  expect(body.html).not.toContain('<script')
  expect(body.html).not.toMatch(/title="[^"]*"[^ >]/)
  expect(body.html.match(/</g)).toHaveLength(2) // <iframe …> and </iframe>, nothing from the title
  expect(iframeAttribute(body.html, 'title')).toBe(post.title)
})

test('the home map with its parameters embeds as /embed with the same ones; a category the public sees names it', async ({ request, baseURL }) => {
  const body = await (await request.get(oembed({ url: `${baseURL}/?category=3&zoom=5&lat=48.8&lng=2.3&utm=x` }))).json()
  expect(body.title).toBe('Map of places: Paris')
  const src = new URL(iframeAttribute(body.html, 'src'))
  expect(src.pathname).toBe('/embed')
  expect(Object.fromEntries(src.searchParams)).toEqual({ category: '3', zoom: '5', lat: '48.8', lng: '2.3' })
  expect((await (await request.get(oembed({ url: `${baseURL}/` }))).json()).title).toBe('Map of places')
})

test('discovery: the home map, /embed and every post page link to their oEmbed answers, in JSON and XML', async ({ request, baseURL }) => {
  const discovery = (html: string, type: string) =>
    new RegExp(`<link rel="alternate" type="${type.replace('+', '\\+')}" href="([^"]+)"`).exec(html)?.[1]?.replace(/&amp;/g, '&')
  const hidden = fixturePosts.find((p) => p.status === 'publish' && !p.geoPublic && p.coordinates)!
  for (const [page, embedded, type] of [
    ['/?category=3', '/?category=3', 'rich'],
    ['/embed?category=3&zoom=4', '/?category=3&zoom=4', 'rich'],
    [pageOf(fixturePost('Eiffel Tower')), pageOf(fixturePost('Eiffel Tower')), 'rich'],
    [pageOf(hidden), pageOf(hidden), 'link'],
  ] as const) {
    const html = await (await request.get(page)).text()
    const json = discovery(html, 'application/json+oembed')
    expect(json, page).toBe(`${baseURL}${oembed({ url: `${baseURL}${embedded}` })}`)
    expect(discovery(html, 'text/xml+oembed'), page).toBe(`${json}&format=xml`)
    const answer = await request.get(json!)
    expect(answer.status(), page).toBe(200)
    expect((await answer.json()).type, page).toBe(type)
    expect(await (await request.get(`${json}&format=xml`)).text(), page).toContain(`<type>${type}</type>`)
  }
})
