// XML 1.0 allows no control characters but tab and line breaks, no lone surrogates, no U+FFFE and U+FFFF: one of them
// in a title would make a whole feed or sitemap unreadable, so they are dropped.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udfff]/gu

/** Text for HTML: an element's text or an attribute's value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Text for XML: an element's text or an attribute's value. */
export function escapeXml(text: string): string {
  return escapeHtml(text.replace(NOT_XML, ''))
}

/** Text as a CDATA section, as WordPress's exporter writes one: a `]]>` inside split across two sections. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(NOT_XML, '').replaceAll(']]>', ']]]]><![CDATA[>')}]]>`
}
