import { createHash } from 'node:crypto'
import type { Config } from '../config'
import type { NamespaceArg, RestIndex } from './contract'
import { getOpenApiDocument, type OpenApiDocument } from './openapi'

type IndexConfig = Pick<Config, 'siteUrl' | 'sharedCacheSeconds'>
/** What the index says of the site: its settings (lib/site.ts), and its time zone's offset from UTC now, in hours. */
export type IndexSite = { name: string; description: string; timezone: string; gmtOffset: number }
type Route = RestIndex['routes'][string]

/**
 * Every route WordPress clients reach under /wp-json, keyed as WordPress keys them (relative to /wp-json, path
 * parameters as its regex groups), made from the OpenAPI document, the one description of the routes: the places/v1
 * routes (which also answer under /wp-json: their `servers`) and those whose path is under /wp-json itself.
 */
export function restRoutes(document: OpenApiDocument, siteUrl: string): Record<string, Route> {
  const routes: Record<string, Route> = {}
  for (const [path, { servers, ...item }] of Object.entries(document.paths)) {
    const underWpJson = (servers ?? document.servers).some((server) => server.url === `${siteUrl}/wp-json`)
    if (!underWpJson && !path.startsWith('/wp-json/')) continue
    const key = (underWpJson ? path : path.slice('/wp-json'.length)).replace(/\{(\w+)\}/g, '(?P<$1>[\\d]+)')
    const operations = Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), operation }))
    routes[key] = {
      namespace: key === '/' ? '' : key.split('/').slice(1, 3).join('/'),
      methods: operations.map((o) => o.method),
      endpoints: operations.map(({ method, operation }) => ({
        methods: [method],
        args: Object.fromEntries(
          (operation.parameters ?? [])
            .filter((p) => p.in !== 'header')
            .map((p) => {
              const arg: NamespaceArg = {
                type: typeof p.schema.type === 'string' ? p.schema.type : 'string',
                required: p.required ?? false,
                description: p.description,
              }
              if (p.schema.default !== undefined) arg.default = p.schema.default
              return [p.name, arg]
            }),
        ),
      })),
      ...(path.includes('{') ? {} : { _links: { self: [{ href: `${siteUrl}${path}` }] } }),
    }
  }
  return routes
}

/** GET /wp-json/ as WordPress answers it: the site, its namespaces and every route with its arguments. */
export function getRestIndex(config: IndexConfig, site: IndexSite): RestIndex {
  const { siteUrl } = config
  const routes = restRoutes(getOpenApiDocument(config), siteUrl)
  const namespaces = [...new Set(Object.values(routes).map((route) => route.namespace))].filter(Boolean).sort()
  return {
    name: site.name,
    description: site.description,
    url: siteUrl,
    home: siteUrl,
    gmt_offset: site.gmtOffset,
    timezone_string: site.timezone,
    namespaces,
    authentication: {},
    routes,
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }], describedby: [{ href: `${siteUrl}/places/v1/openapi.json` }] },
  }
}

let last: { document: OpenApiDocument; siteUrl: string; site: string; body: string; etag: string } | undefined

/** The index's bytes and ETag: made once, again only for another configuration or site (its settings, its offset). */
export function restIndexBody(config: IndexConfig, site: IndexSite): { body: string; etag: string } {
  const document = getOpenApiDocument(config)
  const siteKey = JSON.stringify(site)
  if (last?.document !== document || last.siteUrl !== config.siteUrl || last.site !== siteKey) {
    const body = JSON.stringify(getRestIndex(config, site))
    last = { document, siteUrl: config.siteUrl, site: siteKey, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
  }
  return last
}
