import { createHash } from 'node:crypto'
import type { Config } from '../config'
import { SITE_DESCRIPTION, SITE_NAME } from '../places/oembed'
import type { NamespaceArg, RestIndex } from './contract'
import { getOpenApiDocument, type OpenApiDocument } from './openapi'

type IndexConfig = Pick<Config, 'siteUrl' | 'sharedCacheSeconds'>
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
export function getRestIndex(config: IndexConfig): RestIndex {
  const { siteUrl } = config
  const routes = restRoutes(getOpenApiDocument(config), siteUrl)
  const namespaces = [...new Set(Object.values(routes).map((route) => route.namespace))].filter(Boolean).sort()
  return {
    name: SITE_NAME,
    description: SITE_DESCRIPTION,
    url: siteUrl,
    home: siteUrl,
    gmt_offset: 0,
    timezone_string: 'UTC',
    namespaces,
    authentication: {},
    routes,
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }], describedby: [{ href: `${siteUrl}/places/v1/openapi.json` }] },
  }
}

let last: { document: OpenApiDocument; siteUrl: string; body: string; etag: string } | undefined

/** The index's bytes and ETag: made once, again only when the document is made again (another configuration). */
export function restIndexBody(config: IndexConfig): { body: string; etag: string } {
  const document = getOpenApiDocument(config)
  if (last?.document !== document || last.siteUrl !== config.siteUrl) {
    const body = JSON.stringify(getRestIndex(config))
    last = { document, siteUrl: config.siteUrl, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }
  }
  return last
}
