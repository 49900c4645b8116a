import type { Config } from '../config'
import type { NamespaceIndex } from './contract'
import { getOpenApiDocument } from './openapi'
import { restRoutes } from './rest-index'

/**
 * GET /places/v1 as WordPress answers for a namespace (`/wp-json/places/v1`): every route of the namespace with its
 * methods and arguments, as the site's index (GET /wp-json/) lists them.
 */
export function getNamespaceIndex(config: Pick<Config, 'siteUrl' | 'sharedCacheSeconds'>): NamespaceIndex {
  const { siteUrl } = config
  const routes: NamespaceIndex['routes'] = {}
  for (const [key, route] of Object.entries(restRoutes(getOpenApiDocument(config), siteUrl))) {
    if (route.namespace === 'places/v1') routes[key] = { ...route, namespace: 'places/v1' }
  }
  return { namespace: 'places/v1', routes, _links: { up: [{ href: `${siteUrl}/wp-json/` }], describedby: [{ href: `${siteUrl}/places/v1/openapi.json` }] } }
}
