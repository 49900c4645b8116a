import { readFeed, xml } from '../support/feeds'
import { expect, test } from '../support/test'

// README, "Feeds": the site's RSS 2.0 and Atom 1.0, of the newest published posts of type `post`, on both databases.
// A category's and a tag's feeds, whose test writes posts of type `post`, are in e2e/ui/feeds.spec.ts: here the other
// spec files compare the `post` collection with the fixtures.

test("the site's feeds: at most ten published posts, newest first; /feed/ as WordPress; every page names the feed", async ({ request, baseURL }) => {
  const rss = await readFeed(request, '/feed/', 'rss')
  expect(rss.parsed.title).toBe('Places')
  const atom = await readFeed(request, '/feed/atom', 'atom')
  for (const { parsed } of [rss, atom]) {
    expect(parsed.items.length).toBeGreaterThan(0)
    expect(parsed.items.length).toBeLessThanOrEqual(10)
    const dates = parsed.items.map((item) => item.published!.getTime())
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    for (const item of parsed.items) expect(item.url).toMatch(new RegExp(`^${baseURL}/post/`))
  }
  xml(rss.text)
  for (const page of ['/', '/post/eiffel-tower', '/signin']) {
    expect(await (await request.get(page)).text(), page).toContain(`<link rel="alternate" type="application/rss+xml" href="${baseURL}/feed" title="Places"/>`)
  }
})
