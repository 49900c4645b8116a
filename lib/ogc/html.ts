import 'server-only'
import { createHash } from 'node:crypto'
import type {
  OgcCollection,
  OgcCollections,
  OgcConformance,
  OgcFeature,
  OgcItems,
  OgcLandingPage,
  OgcLink,
  OgcTripFeature,
  OgcTripItems,
} from '../api/contract'
import { getConfig } from '../config'
import { escapeHtml } from '../content/xml'
import { TRIPS_COLLECTION } from './trips'

// The HTML encoding of OGC API – Features (docs/api.md, OGC API – Features): each resource as a page a person can
// browse, made from the very document a GIS client is given, so that the two cannot disagree. Every value reaches the
// page through the html`` template, which escapes it; only the template's own markup is markup.

class Html {
  constructor(readonly text: string) {}
}

type Value = string | number | false | null | undefined | Html | Value[]

function render(value: Value): string {
  if (value instanceof Html) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(String(value))
}

function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  return new Html(strings.reduce((text, part, i) => text + render(values[i - 1]) + part))
}

// The site's colours and type (app/globals.css), inline: the page is one request, allowed by its hash in the CSP.
const STYLE = `:root{--fg:#1d2327;--muted:#50575e;--accent:#2271b1;--line:#dcdcde;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:var(--fg);background:#fff}
body{margin:0}a{color:var(--accent)}
header{display:flex;align-items:center;gap:1rem;padding:.6rem 1rem;border-bottom:1px solid var(--line)}
header>a{font-weight:700;text-decoration:none;color:var(--fg)}
main{max-width:64rem;margin:0 auto;padding:1rem}
nav ol{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;margin:0;padding:0;color:var(--muted)}
nav li+li::before{content:'›';margin-right:.4rem}
.formats,.muted{color:var(--muted)}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
td.number{font-variant-numeric:tabular-nums;white-space:nowrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem}dt{font-weight:600}dd{margin:0}
.pages{display:flex;gap:1rem;margin:1rem 0}
code{overflow-wrap:anywhere}
main li{margin:.6rem 0}nav li{margin:0;line-height:1.8}`

const STYLE_ELEMENT = new Html(`<style>${STYLE}</style>`)

/** The Content-Security-Policy of these pages: no script at all, the one inline style by its hash. */
export const OGC_HTML_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** `href` with f=html set, as the links between pages carry it: a person following them stays in HTML. */
export function withFormat(href: string, format: 'html' | 'json'): string {
  const url = new URL(href)
  url.searchParams.set('f', format)
  return url.toString()
}

type Crumb = { title: string; href?: string }

function page(title: string, crumbs: Crumb[], json: { href: string; type: string }, body: Html): string {
  return `<!doctype html>${
    html`<html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · Places OGC API</title>
        <link rel="alternate" type="${json.type}" href="${json.href}" />
        ${STYLE_ELEMENT}
      </head>
      <body>
        <header><a href="${getConfig().siteUrl}/">Places</a></header>
        <main>
          <nav aria-label="Breadcrumb">
            <ol>
              ${crumbs.map(
                (crumb) =>
                  html`<li>
                    ${crumb.href ? html`<a href="${withFormat(crumb.href, 'html')}">${crumb.title}</a>` : html`<span aria-current="page">${crumb.title}</span>`}
                  </li>`,
              )}
            </ol>
          </nav>
          <h1>${title}</h1>
          ${body}
          <p class="formats">
            This page as <a href="${withFormat(json.href, 'json')}" type="${json.type}">${json.type === 'application/json' ? 'JSON' : 'GeoJSON'}</a>.
          </p>
        </main>
      </body>
    </html>`.text
  }`
}

function link(links: OgcLink[], rel: string): OgcLink | undefined {
  return links.find((l) => l.rel === rel)
}

function selfOf(links: OgcLink[]): { href: string; type: string } {
  const self = link(links, 'self')!
  return { href: self.href, type: self.type ?? 'application/json' }
}

function ogcRoot(): string {
  return `${getConfig().siteUrl}/ogc`
}

function rootCrumbs(): Crumb[] {
  return [{ title: 'OGC API', href: ogcRoot() }]
}
function collectionsCrumbs(): Crumb[] {
  return [...rootCrumbs(), { title: 'Collections', href: `${ogcRoot()}/collections` }]
}

export function landingHtml(document: OgcLandingPage): string {
  const self = selfOf(document.links)
  return page(
    document.title,
    [],
    self,
    html`<p>${document.description}</p>
      <ul>
        <li><a href="${withFormat(link(document.links, 'data')!.href, 'html')}">The collections</a></li>
        <li><a href="${withFormat(link(document.links, 'conformance')!.href, 'html')}">Conformance classes</a></li>
        ${document.links.filter((l) => l.rel === 'service-desc').map((l) => html`<li><a href="${l.href}">${l.title}</a></li>`)}
      </ul>
      <h2>In a GIS</h2>
      <p>
        In QGIS: Layer › Add Layer › Add WFS / OGC API – Features Layer, with the URL <code>${self.href}</code>. With GDAL:
        <code>ogrinfo OAPIF:${self.href}</code>.
      </p>`,
  )
}

export function conformanceHtml(document: OgcConformance): string {
  return page(
    'Conformance classes',
    rootCrumbs(),
    { href: `${ogcRoot()}/conformance`, type: 'application/json' },
    html`<p>This API implements these classes of OGC API – Features:</p>
      <ul>
        ${document.conformsTo.map((uri) => html`<li><code>${uri}</code></li>`)}
      </ul>`,
  )
}

function extentText(collection: OgcCollection): string {
  const [w, s, e, n] = collection.extent.spatial.bbox[0]!
  return `${w}, ${s} to ${e}, ${n}`
}

export function collectionsHtml(document: OgcCollections): string {
  const self = selfOf(document.links)
  return page(
    'Collections',
    rootCrumbs(),
    self,
    document.collections.length === 0
      ? html`<p>No post type has a public place yet.</p>`
      : html`<table>
          <thead>
            <tr>
              <th scope="col">Collection</th>
              <th scope="col">Description</th>
              <th scope="col">Extent (longitude, latitude)</th>
            </tr>
          </thead>
          <tbody>
            ${document.collections.map(
              (c) =>
                html`<tr>
                  <td><a href="${withFormat(link(c.links, 'self')!.href, 'html')}">${c.title}</a></td>
                  <td>${c.description}</td>
                  <td class="number">${extentText(c)}</td>
                </tr>`,
            )}
          </tbody>
        </table>`,
  )
}

export function collectionHtml(collection: OgcCollection): string {
  const self = selfOf(collection.links)
  const trips = collection.id === TRIPS_COLLECTION
  return page(
    collection.title ?? collection.id,
    collectionsCrumbs(),
    self,
    html`<p>${collection.description}</p>
      <dl>
        <dt>Id</dt>
        <dd><code>${collection.id}</code></dd>
        <dt>Extent</dt>
        <dd>${extentText(collection)} (longitude, latitude; CRS84)</dd>
        <dt>${trips ? 'Travelled' : 'Published'}</dt>
        <dd>${collection.extent.temporal.interval[0]!.map((end) => (end ? day(end) : '–')).join(' to ')}</dd>
      </dl>
      <p><a href="${withFormat(link(collection.links, 'items')!.href, 'html')}">Browse its ${trips ? 'trips' : 'places'}</a></p>`,
  )
}

/** A date-time as its day (UTC), as the tables show it. */
const day = (dateTime: string) => dateTime.slice(0, 10)

function coordinates(feature: OgcFeature): string {
  const [longitude, latitude] = feature.geometry.coordinates
  return `${latitude}, ${longitude}`
}

type Items<Feature> = { features: Feature[]; numberMatched: number; numberReturned: number; links: OgcLink[] }

/** A page of a collection's items as a table, `noun` naming them, with its paging links. */
function itemsPage<Feature extends { id: number }>(
  items: Items<Feature>,
  collection: OgcCollection,
  noun: string,
  head: string[],
  cells: (feature: Feature) => Html,
): string {
  const self = selfOf(items.links)
  const collectionHref = link(collection.links, 'self')!.href
  const offset = Number(new URL(self.href).searchParams.get('offset') ?? 0)
  const pageLink = (rel: string, text: string) => {
    const target = link(items.links, rel)
    return target ? html`<a href="${withFormat(target.href, 'html')}" rel="${rel}">${text}</a>` : ''
  }
  const title = noun[0]!.toUpperCase() + noun.slice(1)
  return page(
    collection.id === TRIPS_COLLECTION ? 'Trips' : `${title} of ${collection.title ?? collection.id}`,
    [...collectionsCrumbs(), { title: collection.title ?? collection.id, href: collectionHref }],
    self,
    items.numberReturned === 0
      ? html`<p>No ${noun}${offset > 0 ? ' on this page' : ''}.</p>
          <div class="pages">${pageLink('prev', '← Previous')}</div>`
      : html`<p>${title} ${offset + 1}–${offset + items.numberReturned} of ${items.numberMatched}, newest first.</p>
          <table>
            <thead>
              <tr>
                <th scope="col">Id</th>
                ${head.map((column) => html`<th scope="col">${column}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${items.features.map(
                (f) =>
                  html`<tr>
                    <td class="number"><a href="${withFormat(`${collectionHref}/items/${f.id}`, 'html')}">${f.id}</a></td>
                    ${cells(f)}
                  </tr>`,
              )}
            </tbody>
          </table>
          <div class="pages">${pageLink('prev', '← Previous')}${pageLink('next', 'Next →')}</div>`,
  )
}

export function itemsHtml(items: OgcItems, collection: OgcCollection): string {
  return itemsPage(
    items,
    collection,
    'places',
    ['Title', 'Address', 'Published', 'Latitude, longitude'],
    (f) =>
      html`<td><a href="${f.properties.url}">${f.properties.title || '(no title)'}</a></td>
        <td>${f.properties.address}</td>
        <td class="number"><time datetime="${f.properties.date}">${day(f.properties.date)}</time></td>
        <td class="number">${coordinates(f)}</td>`,
  )
}

const kilometres = (metres: number) => `${(metres / 1000).toFixed(1)} km`

export function tripItemsHtml(items: OgcTripItems, collection: OgcCollection): string {
  return itemsPage(
    items,
    collection,
    'trips',
    ['Title', 'Started', 'Distance', 'Route'],
    (f) =>
      html`<td><a href="${f.properties.url}">${f.properties.title || '(no title)'}</a></td>
        <td class="number">${f.properties.started_at ? html`<time datetime="${f.properties.started_at}">${day(f.properties.started_at)}</time>` : '–'}</td>
        <td class="number">${kilometres(f.properties.distance_m)}</td>
        <td>${routeText(f)}</td>`,
  )
}

function routeText(feature: OgcTripFeature): string {
  if (!feature.geometry) return 'hidden'
  const lines = feature.geometry.coordinates
  const points = lines.reduce((sum, line) => sum + line.length, 0)
  return `${lines.length} ${lines.length === 1 ? 'line' : 'lines'} of ${points} points`
}

/** One item's page, under its collection and its items. */
function itemPage(title: string, links: OgcLink[] | undefined, collection: OgcCollection, noun: string, body: Html): string {
  return page(
    title || '(no title)',
    [
      ...collectionsCrumbs(),
      { title: collection.title ?? collection.id, href: link(collection.links, 'self')!.href },
      { title: noun, href: link(collection.links, 'items')!.href },
    ],
    selfOf(links ?? []),
    body,
  )
}

export function itemHtml(feature: OgcFeature, collection: OgcCollection): string {
  return itemPage(
    feature.properties.title,
    feature.links,
    collection,
    'Places',
    html`<dl>
      <dt>Id</dt>
      <dd>${feature.id}</dd>
      <dt>Address</dt>
      <dd>${feature.properties.address || html`<span class="muted">none given</span>`}</dd>
      <dt>Latitude, longitude</dt>
      <dd>${coordinates(feature)}</dd>
      <dt>Published</dt>
      <dd><time datetime="${feature.properties.date}">${feature.properties.date}</time></dd>
      <dt>Post</dt>
      <dd><a href="${feature.properties.url}">${feature.properties.url}</a></dd>
    </dl>`,
  )
}

export function tripItemHtml(feature: OgcTripFeature, collection: OgcCollection): string {
  const { properties: p } = feature
  return itemPage(
    p.title,
    feature.links,
    collection,
    'Trips',
    html`<dl>
      <dt>Id</dt>
      <dd>${feature.id}</dd>
      <dt>Description</dt>
      <dd>${p.description || html`<span class="muted">none given</span>`}</dd>
      <dt>Travelled</dt>
      <dd>
        ${p.started_at && p.ended_at ? html`<time datetime="${p.started_at}">${p.started_at}</time> to <time datetime="${p.ended_at}">${p.ended_at}</time>` : '–'}
      </dd>
      <dt>Distance</dt>
      <dd>${kilometres(p.distance_m)}${p.climb_m === null ? '' : `, ${p.climb_m} m climbed`}</dd>
      <dt>Route</dt>
      <dd>${routeText(feature)}</dd>
      <dt>Trip</dt>
      <dd><a href="${p.url}">${p.url}</a></dd>
    </dl>`,
  )
}

/** An error, for a person: its message, what was wrong with each parameter, and the way back to the start. */
export function errorHtml(status: number, message: string, params: Record<string, string> = {}): string {
  return page(
    status === 404 ? 'Not found' : 'Not understood',
    rootCrumbs(),
    { href: ogcRoot(), type: 'application/json' },
    html`<p>${message}</p>
      ${
        Object.keys(params).length > 0 &&
        html`<ul>
          ${Object.values(params).map((problem) => html`<li>${problem}</li>`)}
        </ul>`
      }`,
  )
}
