import { points, publicPoint, readFeed } from '../support/feeds'
import { createUser, importPosts, runId } from '../support/places-cli'
import { expect, test } from '../support/test'

// README, "Feeds": a category's feed (its descendants' posts too) and a tag's, each place at what the public may see
// of it; WordPress's archive addresses. Plain HTTP, on the ui server, whose tests may add posts of type `post`.

test("a category's and a tag's feeds: their published posts, newest first, each place at the public's precision", async ({
  request,
  baseURL,
  databaseUrl,
  uploadsDir,
}) => {
  const run = runId()
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const author = `feeds-${run}@e2e.test`
  await createUser(server, author, `feeds-password-${run}`, 'editor')
  const trips = `Trips ${run}`
  const at = (coordinates: [number, number]) => ({ type: 'Point' as const, coordinates })
  const [exact, approximate, hidden] = await importPosts(
    server,
    [
      {
        type: 'Feature',
        geometry: at([-9.1393, 38.7223]),
        properties: {
          title: `Exact & here ${run}`,
          date: '2024-05-03T10:00:00Z',
          categories: [trips],
          excerpt: 'Where <b>trams</b> start & end.',
          content: `<p>See <a href="/post/elsewhere">the square</a>.</p>`,
        },
      },
      {
        type: 'Feature',
        geometry: at([-9.1427, 38.7139]),
        properties: {
          title: `Approximate ${run}`,
          date: '2024-05-02T10:00:00Z',
          categories: [`${trips} > Lisbon ${run}`],
          tags: [`Tiles ${run}`],
          location_precision: 'approximate',
        },
      },
      {
        type: 'Feature',
        geometry: at([-9.13, 38.71]),
        properties: { title: `Hidden ${run}`, date: '2024-05-01T10:00:00Z', categories: [trips], geo_public: false },
      },
      {
        type: 'Feature',
        geometry: at([-9.13, 38.71]),
        properties: { title: `Draft ${run}`, status: 'draft', categories: [trips, `Plans ${run}`], tags: [`Tiles ${run}`, `Unpublished ${run}`] },
      },
      { type: 'Feature', geometry: at([-9.13, 38.71]), properties: { title: `Elsewhere ${run}`, categories: [`Other ${run}`] } },
      { type: 'Feature', geometry: at([-9.13, 38.71]), properties: { title: `A landmark ${run}`, type: 'landmark', categories: [trips] } },
    ],
    author,
  )

  const rss = await readFeed(request, `/category/trips-${run}/feed`, 'rss')
  expect(rss.parsed.title).toBe(`Places » ${trips}`)
  expect(rss.parsed.items.map((item) => item.title)).toEqual([`Exact & here ${run}`, `Approximate ${run}`, `Hidden ${run}`])
  const [first] = rss.parsed.items
  expect(first!.url).toBe(`${baseURL}/post/exact-here-${run}`)
  // RSS's description is HTML: the excerpt's text escaped in it, so a reader shows the tags as written, never as markup.
  expect(first!.description).toBe('Where &#60;b&#62;trams&#60;/b&#62; start &#38; end.')
  expect(first!.id, 'an id a new slug does not change').toBe(`tag:${new URL(baseURL!).host},2026:post/${exact}`)
  expect(first!.content, 'links made absolute').toContain(`href="${baseURL}/post/elsewhere"`)
  expect(first!.categories.map((category) => category.label)).toEqual([trips])
  expect(first!.authors.map((person) => person.name)).toEqual(['E2E editor'])
  expect(first!.published?.toISOString()).toBe('2024-05-03T10:00:00.000Z')
  const expected: [string, string][] = [
    [`Exact & here ${run}`, '38.7223 -9.1393'],
    [`Approximate ${run}`, await publicPoint(request, approximate!)],
    [`Hidden ${run}`, ''],
  ]
  expect(expected[1]![1], 'the approximate place is not its exact point').not.toBe('38.7139 -9.1427')
  expect(points(rss.text)).toEqual(expected)
  expect(rss.text, 'the hidden post carries no coordinates of its place').not.toContain('38.71 -9.13')
  expect(Number.isInteger(hidden)).toBe(true)

  const atom = await readFeed(request, `/category/trips-${run}/feed/atom`, 'atom')
  expect(atom.parsed.items.map((item) => [item.title, item.id])).toEqual(rss.parsed.items.map((item) => [item.title, item.id]))
  expect(points(atom.text)).toEqual(expected)

  const tag = await readFeed(request, `/tag/tiles-${run}/feed`, 'rss')
  expect(tag.parsed.items.map((item) => item.title)).toEqual([`Approximate ${run}`])

  // WordPress's archive addresses open the home map of the category or tag; unknown ones are 404.
  const archive = await request.get(`/category/trips-${run}`, { maxRedirects: 0 })
  expect(archive.status()).toBe(308)
  expect(archive.headers().location).toMatch(/^\/\?category=\d+$/)
  const home = await (await request.get(archive.headers().location!)).text()
  expect(home, 'the map of a category names its feed').toContain(`href="${baseURL}/category/trips-${run}/feed"`)
  expect((await request.get(`/tag/tiles-${run}`, { maxRedirects: 0 })).headers().location).toMatch(/^\/\?tag=\d+$/)
  // A category or tag only drafts have is as unknown: its name is never shown, its existence not told.
  for (const url of [
    `/category/none-${run}/feed`,
    `/tag/none-${run}/feed/atom`,
    `/category/none-${run}`,
    `/category/plans-${run}/feed`,
    `/category/plans-${run}`,
    `/tag/unpublished-${run}/feed`,
    `/tag/unpublished-${run}`,
  ])
    expect((await request.get(url)).status(), url).toBe(404)
})
