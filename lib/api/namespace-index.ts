import type { Config } from '../config'
import type { NamespaceArg, NamespaceIndex } from './contract'
import { getOpenApiDocument } from './openapi'

/**
 * GET /places/v1 as WordPress answers for a namespace (`/wp-json/places/v1`): every route with its methods and
 * arguments, path parameters written as WordPress's regex groups. Made from the OpenAPI document, the one
 * description of the routes.
 */
export function getNamespaceIndex(config: Pick<Config, 'siteUrl' | 'sharedCacheSeconds'>): NamespaceIndex {
  const { siteUrl } = config
  const document = getOpenApiDocument(config)
  const routes: NamespaceIndex['routes'] = {}
  for (const [path, { servers: _, ...item }] of Object.entries(document.paths)) {
    if (!path.startsWith('/places/v1')) continue
    const route = path.replace(/\{(\w+)\}/g, '(?P<$1>[\\d]+)')
    const operations = Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), operation }))
    routes[route] = {
      namespace: 'places/v1',
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
  return { namespace: 'places/v1', routes, _links: { up: [{ href: `${siteUrl}/wp-json/` }], describedby: [{ href: `${siteUrl}/places/v1/openapi.json` }] } }
}
