/** The formats `places import` reads (docs/cli.md, "Other formats"); WXR is named only to point at `import-wxr`. */
export type ImportFileFormat = 'geojson' | 'kml' | 'kmz' | 'gpx' | 'csv' | 'wxr'

const ZIP = Buffer.from('PK\u0003\u0004', 'latin1')
const BOM = '\uFEFF'

/**
 * The format of a file, from its first bytes (HEAD_BYTES of them), whatever its name: a zip is KMZ, a JSON object
 * GeoJSON, XML by its root element, anything else CSV. A file saved as `.txt` or downloaded without an extension is
 * read all the same.
 */
export function detectFormat(head: Buffer): ImportFileFormat | { unknownXml: string } {
  if (head.subarray(0, 4).equals(ZIP)) return 'kmz'
  const text = head.toString('utf8').replace(BOM, '').trimStart()
  if (text.startsWith('{') || text.startsWith('[')) return 'geojson'
  if (!text.startsWith('<')) return 'csv'
  const root = rootElement(text)
  if (root === 'kml') return 'kml'
  if (root === 'gpx') return 'gpx'
  if (root === 'rss') return 'wxr'
  return { unknownXml: root ?? '' }
}

export const HEAD_BYTES = 4096

/** The local name of the first element that is not a declaration, comment or doctype. */
function rootElement(text: string): string | null {
  const withoutProlog = text.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<![^>]*>/g, '')
  const match = /<\s*(?:[\w.-]+:)?([\w.-]+)/.exec(withoutProlog)
  return match ? match[1]!.toLowerCase() : null
}
