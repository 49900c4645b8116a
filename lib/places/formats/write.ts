import { stringify } from 'csv-stringify/sync'
import { contentText } from '../../content/html'
import type { ExportedFeature } from '../export'
import { postUrl } from '../geojson'
import type { ExportFormat } from './names'

/** What a file says about itself: the site's name in KML and GPX, and its address for each post's URL. */
export type ExportMeta = { siteUrl: string; name: string }

// Characters XML 1.0 cannot hold at all, even as references (control characters, lone surrogates, U+FFFE/FFFF).
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' }

/**
 * Text as XML character data or an attribute value: markup characters as entities, a carriage return as a
 * reference (a parser would turn a raw one into a line feed), and what XML cannot hold replaced by U+FFFD.
 */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"'\r]/g, (char) => ENTITIES[char]!)
}

// What makes a spreadsheet read a cell as a formula, after any `'` already there: OWASP's CSV injection list, with
// the spaces an import may trim before it and the full-width forms some locales read as the same signs.
const FORMULA = /^'* *[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/

/**
 * A CSV text cell no spreadsheet runs: one that would start a formula gets a `'` in front (OWASP's advice). So does
 * one that starts with `'`s before such a character, so that the escape is a bijection: unescapeFormula takes one `'`
 * off exactly the cells this adds it to (`=1` ↔ `'=1`, `'=1` ↔ `''=1`), and gives back every text as it was.
 */
export const escapeFormula = (text: string): string => (FORMULA.test(text) ? `'${text}` : text)

/** A CSV text cell as it was before escapeFormula; a cell it could not have written is kept as it is. */
export const unescapeFormula = (cell: string): string => (cell.startsWith("'") && FORMULA.test(cell) ? cell.slice(1) : cell)

/** The categories of a post in one field: paths joined by `|`, as the CSV and KML readers split them. */
export const joinCategories = (paths: readonly string[]): string => paths.join('|')

/** A post's tags in one field, as WordPress lists them: a tag's name holds no comma (tagNameSchema). */
export const joinTags = (names: readonly string[]): string => names.join(', ')

const element = (name: string, value: string | undefined) => (value ? `<${name}>${escapeXml(value)}</${name}>` : '')

/** Places as a file of `format`, a string at a time, as they come: a site of any size is never held in memory. */
export async function* writePlaces(format: ExportFormat, features: AsyncIterable<ExportedFeature>, meta: ExportMeta): AsyncGenerator<string> {
  const write = WRITERS[format]
  yield write.head(meta)
  let first = true
  for await (const feature of features) {
    const item = write.item(feature, meta, first)
    first = false
    if (item) yield item
  }
  yield write.tail
}

type Writer = { head: (meta: ExportMeta) => string; item: (feature: ExportedFeature, meta: ExportMeta, first: boolean) => string; tail: string }

const CSV_HEADER = ['id', 'title', 'latitude', 'longitude', 'address', 'content', 'excerpt', 'date', 'categories', 'tags', 'slug', 'post_type', 'url']

const WRITERS: Record<ExportFormat, Writer> = {
  // The import format (docs/cli.md), one feature a line.
  geojson: {
    head: () => '{"type":"FeatureCollection","features":[',
    item: (feature, _meta, first) => `${first ? '\n' : ',\n'}${JSON.stringify(feature)}`,
    tail: '\n]}\n',
  },
  // KML 2.2 as Google Earth and My Maps read it; what KML has no element for is in ExtendedData, which the
  // KML reader reads back (lib/places/formats/xml-formats.ts).
  kml: {
    head: ({ name }) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:atom="http://www.w3.org/2005/Atom">\n<Document>${element('name', name)}\n`,
    item: ({ geometry, properties: p }, { siteUrl }) => {
      const url = postUrl(siteUrl, p.type, p.slug)
      const data = { id: String(p.id), url, slug: p.slug, post_type: p.type, categories: joinCategories(p.categories) }
      return [
        `<Placemark id="post-${p.id}">`,
        element('name', p.title),
        `<atom:link href="${escapeXml(url)}"/>`,
        element('address', p.address),
        element('description', p.content),
        `<TimeStamp><when>${p.date}</when></TimeStamp>`,
        `<ExtendedData>${Object.entries(data)
          .map(([name, value]) => `<Data name="${name}"><value>${escapeXml(value)}</value></Data>`)
          .join('')}</ExtendedData>`,
        geometry ? `<Point><coordinates>${geometry.coordinates[0]},${geometry.coordinates[1]}</coordinates></Point>` : '',
        '</Placemark>\n',
      ].join('')
    },
    tail: '</Document>\n</kml>\n',
  },
  // GPX 1.1 waypoints: a post without a location has no place in GPX, and is left out.
  gpx: {
    head: ({ name, siteUrl }) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="Places" xmlns="http://www.topografix.com/GPX/1/1">\n<metadata>${element('name', name)}<link href="${escapeXml(siteUrl)}"/></metadata>\n`,
    item: ({ geometry, properties: p }, { siteUrl }) =>
      geometry
        ? [
            `<wpt lat="${geometry.coordinates[1]}" lon="${geometry.coordinates[0]}">`,
            element('time', p.date),
            element('name', p.title),
            // GPX's desc is text: the content's text, not its markup.
            element('desc', contentText(p.content)),
            `<link href="${escapeXml(postUrl(siteUrl, p.type, p.slug))}"/>`,
            '</wpt>\n',
          ].join('')
        : '',
    tail: '</gpx>\n',
  },
  // RFC 4180 (quoted where needed), a header of the names the CSV reader finds, decimal points. Text that would
  // start a formula is escaped; numbers (the id, a negative latitude) are written as they are.
  csv: {
    head: () => stringify([CSV_HEADER]),
    item: ({ geometry, properties: p }, { siteUrl }) =>
      stringify([
        [
          p.id,
          p.title,
          geometry?.coordinates[1] ?? '',
          geometry?.coordinates[0] ?? '',
          p.address,
          p.content,
          p.excerpt ?? '',
          p.date,
          joinCategories(p.categories),
          joinTags(p.tags ?? []),
          p.slug,
          p.type,
          postUrl(siteUrl, p.type, p.slug),
        ].map((cell) => (typeof cell === 'string' ? escapeFormula(cell) : cell)),
      ]),
    tail: '',
  },
}
