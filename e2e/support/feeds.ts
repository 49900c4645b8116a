import { parseFeed } from '@rowanmanning/feed-parser'
import { DOMParser, type Element } from '@xmldom/xmldom'
import type { APIRequestContext } from '@playwright/test'
import { expect } from './test'

// The feeds read as a reader would (README, "Feeds"): the XML by a strict parser (xmldom), the feed by an independent
// one (@rowanmanning/feed-parser).

const GEORSS = 'http://www.georss.org/georss'

/** The document, which must be well-formed XML: xmldom reports any error, and the test fails on it. */
export function xml(text: string) {
  return new DOMParser({
    onError: (level, message) => {
      throw new Error(`not well-formed XML (${level}): ${message}`)
    },
  }).parseFromString(text, 'text/xml')
}

/** Each item's (entry's) title and <georss:point>, '' for none. */
export function points(text: string): [string, string][] {
  const document = xml(text)
  const items = [...Array.from(document.getElementsByTagName('item')), ...Array.from(document.getElementsByTagName('entry'))]
  return items.map((item: Element) => [
    item.getElementsByTagName('title')[0]!.textContent ?? '',
    item.getElementsByTagNameNS(GEORSS, 'point')[0]?.textContent ?? '',
  ])
}

export async function readFeed(request: APIRequestContext, url: string, type: 'rss' | 'atom') {
  const response = await request.get(url)
  expect(response.status(), url).toBe(200)
  expect(response.headers()['content-type']).toBe(`application/${type}+xml; charset=utf-8`)
  const text = await response.text()
  return { text, parsed: parseFeed(text) }
}

/** "lat lng" of the point GET /places/v1/geojson/{id} gives: what the public may see of the place. */
export async function publicPoint(request: APIRequestContext, id: number): Promise<string> {
  const feature = (await (await request.get(`/places/v1/geojson/${id}`)).json()) as { geometry: { coordinates: [number, number] } }
  const [lng, lat] = feature.geometry.coordinates
  return `${lat} ${lng}`
}
