import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from '../ogc/limits'
import { DEFAULT_PER_PAGE, MAX_CLUSTER_BOX_PIXELS, MAX_PER_PAGE, MAX_ZOOM } from '../places/schemas'

// The OpenAPI 3.1 description of every route of places/v1 and of the OGC API – Features (/ogc): served at /places/v1/openapi.json, the source of the
// WordPress-style namespace index (GET /places/v1, lib/api/namespace-index.ts), and checked against the real
// responses in e2e/api/openapi.spec.ts. A route added without its entry here fails that test.

type Schema = Record<string, unknown>
type Parameter = { name: string; in: 'query' | 'path' | 'header'; required?: boolean; description: string; schema: Schema }
type Operation = {
  operationId: string
  summary: string
  description?: string
  parameters?: Parameter[]
  requestBody?: Record<string, unknown>
  security?: Record<string, string[]>[]
  responses: Record<string, Record<string, unknown>>
}
export type OpenApiDocument = {
  openapi: '3.1.0'
  info: Record<string, unknown>
  servers: { url: string; description: string }[]
  paths: Record<string, { get?: Operation; post?: Operation }>
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Schema> }
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const error = (description: string) => ({ description, content: { 'application/json': { schema: ref('Error') } } })
const geojson = (description: string, schema: Schema) => ({
  description,
  headers: {
    ETag: { description: 'Changes whenever any data the answer depends on changes', schema: { type: 'string' } },
    'Cache-Control': { description: '`public, max-age=0, s-maxage=1` (SHARED_CACHE_SECONDS): browsers revalidate with If-None-Match each time; shared caches may serve it for that long first', schema: { type: 'string' } },
  },
  content: { 'application/geo+json': { schema } },
})
const notModified = { description: 'Not modified: the If-None-Match header names the current ETag. No body.' }
const postId: Parameter = { name: 'id', in: 'path', required: true, description: 'A post id (digits only; anything else matches no route: 404 `rest_no_route`).', schema: { type: 'string', pattern: '^[0-9]+$' } }
const credentials: Record<string, string[]>[] = [{ applicationPassword: [] }, { sessionCookie: [] }]
const collectionId: Parameter = { name: 'collectionId', in: 'path', required: true, description: 'A post type with public places', schema: { type: 'string' } }

export function getOpenApiDocument(siteUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Places REST API (places/v1)',
      version: '1.0.0',
      description: 'Posts with geodata as GeoJSON (RFC 7946), compatible with the WordPress Places plugin. Every route also answers under `/wp-json`. Errors have WordPress\'s shape: `{"code", "message", "data": {"status"}}`.',
    },
    servers: [
      { url: siteUrl, description: 'This site' },
      { url: `${siteUrl}/wp-json`, description: 'The same routes where WordPress clients look for them' },
    ],
    paths: {
      '/places/v1': {
        get: {
          operationId: 'getNamespaceIndex',
          summary: 'The routes of the places/v1 namespace, as WordPress describes a namespace',
          responses: { 200: { description: 'The namespace index', content: { 'application/json': { schema: ref('NamespaceIndex') } } } },
        },
      },
      '/places/v1/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          responses: { 200: { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } } } },
        },
      },
      '/places/v1/geojson': {
        get: {
          operationId: 'getPlaces',
          summary: 'Published posts with public geodata, as a FeatureCollection',
          description: 'Newest publish date first, ties by id descending. A repeated parameter keeps its last value. Unknown parameters are ignored.',
          parameters: [
            { name: 'post_type', in: 'query', description: 'Post type; an unknown type gives an empty collection.', schema: { type: 'string', default: 'post' } },
            { name: 'posts_per_page', in: 'query', description: `How many places: a positive integer, at most ${MAX_PER_PAGE} (larger values are capped); -1 means ${MAX_PER_PAGE}. Anything else is a 400.`, schema: { type: 'string', pattern: '^(-1|[0-9]*[1-9][0-9]*)$', default: String(DEFAULT_PER_PAGE) } },
            { name: 'category', in: 'query', description: 'A category id; posts in its descendant categories match too. An unknown id gives an empty collection; a non-integer is a 400.', schema: { type: 'string', pattern: '^-?[0-9]+$' } },
            { name: 'post_status', in: 'query', description: 'Accepted and ignored: only published posts are returned.', schema: { type: 'string', default: 'publish' } },
            { name: 'bbox', in: 'query', description: 'For maps: only places inside `west,south,east,north` (degrees; west > east crosses the antimeridian). The answer then also carries `total` (places in the box) and `extent` (the box of all places of the type and category).', schema: { type: 'string' } },
            { name: 'page', in: 'query', description: 'For maps, with bbox: the page of posts_per_page places, from 1.', schema: { type: 'string', pattern: '^[0-9]*[1-9][0-9]*$' } },
            { name: 'cluster', in: 'query', description: `For maps: \`true\` answers clusters and places as a map at \`zoom\` draws them (cluster features have \`cluster\`, \`point_count\`, \`expansion_zoom\`); the bbox may then span at most ${MAX_CLUSTER_BOX_PIXELS} pixels each way at that zoom.`, schema: { type: 'string', enum: ['true', 'false', '1', '0'] } },
            { name: 'zoom', in: 'query', description: `With cluster=true (and required then): the map's zoom level, 0 to ${MAX_ZOOM}.`, schema: { type: 'string', pattern: '^[0-9]+$' } },
          ],
          responses: {
            200: geojson('The places; with bbox or cluster, a map collection', { oneOf: [ref('FeatureCollection'), ref('MapCollection')] }),
            304: notModified,
            400: error('An invalid parameter (`rest_invalid_param`, `data.params` names each)'),
          },
        },
      },
      '/places/v1/geojson/{id}': {
        get: {
          operationId: 'getPlace',
          summary: 'One published post with public geodata, as a Feature',
          parameters: [postId],
          responses: {
            200: geojson('The place', ref('Feature')),
            304: notModified,
            404: error('`rest_post_invalid_id` (no such published post), `rest_no_geodata` (no public location) or `rest_no_route`'),
          },
        },
      },
      '/places/v1/attachment-exif-gps/{id}': {
        get: {
          operationId: 'getAttachmentExifGps',
          summary: 'Where the first photo of a post with usable EXIF GPS was taken',
          description: 'Images in their order (position, then upload time, then id); out-of-range coordinates and 0,0 count as no GPS. Needs `edit_post` on the post. Sent with `Cache-Control: private, no-store`.',
          parameters: [postId],
          security: credentials,
          responses: {
            200: { description: 'The GPS of the first suitable image', content: { 'application/json': { schema: ref('AttachmentGps') } } },
            401: error('No credentials (`rest_forbidden`), or wrong ones (`rest_invalid_credentials`)'),
            403: error('No `edit_post` on this post, or no such post (`rest_forbidden`)'),
            404: error('No attached image has usable GPS (`rest_no_exif_gps`; `data.images_checked` counts the images looked at)'),
          },
        },
      },
      '/places/v1/media': {
        post: {
          operationId: 'uploadMedia',
          summary: 'Upload one image to a post',
          description: 'The raw file is the body (as WordPress\'s POST /wp/v2/media takes it); its type is decided from its bytes. Needs `edit_post` on the post. Visitors load a copy without location metadata.',
          parameters: [
            { name: 'post', in: 'query', required: true, description: 'The id of the post the image is for.', schema: { type: 'string', pattern: '^[0-9]+$' } },
            { name: 'title', in: 'query', description: 'The attachment title; default: the file name without its extension.', schema: { type: 'string' } },
            { name: 'Content-Disposition', in: 'header', description: '`attachment; filename="photo.jpg"`: the file name.', schema: { type: 'string' } },
          ],
          requestBody: { required: true, content: { 'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
          security: credentials,
          responses: {
            201: { description: 'The stored attachment', content: { 'application/json': { schema: ref('Attachment') } } },
            400: error('An invalid parameter'),
            401: error('No or wrong credentials'),
            403: error('No `edit_post` on that post'),
            413: error('Larger than the upload limit (`rest_upload_file_too_big`)'),
            415: error('Not an image Places accepts (`rest_upload_invalid_type`)'),
          },
        },
      },
      '/ogc': { get: { operationId: 'getOgcLandingPage', summary: 'OGC API – Features: the landing page', responses: { 200: { description: 'Links to the API definition, conformance and collections', content: { 'application/json': { schema: ref('OgcLinked') } } } } } },
      '/ogc/conformance': {
        get: {
          operationId: 'getOgcConformance',
          summary: 'OGC API – Features: the conformance classes met (Core, GeoJSON)',
          responses: { 200: { description: 'The classes', content: { 'application/json': { schema: { type: 'object', required: ['conformsTo'], properties: { conformsTo: { type: 'array', items: { type: 'string', format: 'uri' } } } } } } } },
        },
      },
      '/ogc/collections': {
        get: {
          operationId: 'getOgcCollections',
          summary: 'OGC API – Features: one collection per post type with public places',
          responses: { 200: { description: 'The collections', content: { 'application/json': { schema: { type: 'object', required: ['links', 'collections'], properties: { links: { type: 'array' }, collections: { type: 'array', items: ref('OgcCollection') } } } } } } },
        },
      },
      '/ogc/collections/{collectionId}': {
        get: {
          operationId: 'getOgcCollection',
          summary: 'OGC API – Features: one collection',
          parameters: [collectionId],
          responses: { 200: { description: 'The collection', content: { 'application/json': { schema: ref('OgcCollection') } } }, 404: error('No such collection (`ogc_no_collection`)') },
        },
      },
      '/ogc/collections/{collectionId}/items': {
        get: {
          operationId: 'getOgcItems',
          summary: 'OGC API – Features: the places of a collection, newest first, paged',
          parameters: [
            collectionId,
            { name: 'bbox', in: 'query', description: 'min longitude, min latitude, max longitude, max latitude (CRS84); a west edge east of the east edge crosses the antimeridian.', schema: { type: 'string' } },
            { name: 'limit', in: 'query', description: `How many items, 1 to ${MAX_LIMIT} (larger values are capped).`, schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT } },
            { name: 'offset', in: 'query', description: `How many items to skip, 0 to ${MAX_OFFSET} (larger values are a 400); the \`next\` and \`prev\` links carry it.`, schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 } },
          ],
          responses: {
            200: { description: 'The items', content: { 'application/geo+json': { schema: ref('OgcItems') } } },
            400: error('An invalid or unknown parameter (`rest_invalid_param`)'),
            404: error('No such collection (`ogc_no_collection`)'),
          },
        },
      },
      '/ogc/collections/{collectionId}/items/{featureId}': {
        get: {
          operationId: 'getOgcItem',
          summary: 'OGC API – Features: one place',
          parameters: [collectionId, { name: 'featureId', in: 'path', required: true, description: 'The post id', schema: { type: 'string' } }],
          responses: {
            200: { description: 'The place', content: { 'application/geo+json': { schema: ref('OgcFeature') } } },
            404: error('No such collection or feature (`ogc_no_collection`, `ogc_no_feature`)'),
          },
        },
      },
    },
    components: {
      schemas: {
        OgcLinked: { type: 'object', required: ['links'], properties: { title: { type: 'string' }, links: { type: 'array', items: ref('OgcLink') } } },
        OgcLink: { type: 'object', required: ['href', 'rel'], properties: { href: { type: 'string', format: 'uri' }, rel: { type: 'string' }, type: { type: 'string' }, title: { type: 'string' } } },
        OgcCollection: {
          type: 'object', required: ['id', 'links', 'extent', 'itemType'],
          properties: { id: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' }, itemType: { const: 'feature' }, crs: { type: 'array' }, extent: { type: 'object' }, links: { type: 'array', items: ref('OgcLink') } },
        },
        OgcFeature: {
          type: 'object', required: ['type', 'id', 'geometry', 'properties'],
          properties: {
            type: { const: 'Feature' }, id: { type: 'integer' }, geometry: ref('Point'),
            properties: { type: 'object', required: ['title', 'url', 'address'], additionalProperties: false, properties: { title: { type: 'string' }, url: { type: 'string', format: 'uri' }, address: { type: 'string' } } },
            links: { type: 'array', items: ref('OgcLink') },
          },
        },
        OgcItems: {
          type: 'object', required: ['type', 'features', 'numberReturned', 'links'],
          properties: {
            type: { const: 'FeatureCollection' }, features: { type: 'array', items: ref('OgcFeature') },
            numberMatched: { type: 'integer' }, numberReturned: { type: 'integer' }, timeStamp: { type: 'string', format: 'date-time' },
            links: { type: 'array', items: ref('OgcLink') },
          },
        },
        Point: {
          type: 'object', required: ['type', 'coordinates'], additionalProperties: false,
          properties: {
            type: { const: 'Point' },
            coordinates: { type: 'array', description: '[longitude, latitude]', prefixItems: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'number', minimum: -90, maximum: 90 }], minItems: 2, maxItems: 2 },
          },
        },
        Feature: {
          type: 'object', required: ['type', 'geometry', 'properties'], additionalProperties: false,
          properties: {
            type: { const: 'Feature' },
            geometry: ref('Point'),
            properties: {
              type: 'object', required: ['id', 'title', 'url', 'address'], additionalProperties: false,
              properties: {
                id: { type: 'integer', description: 'The post id' },
                title: { type: 'string' },
                url: { type: 'string', format: 'uri', description: "The absolute URL of the post's page" },
                address: { type: 'string', description: 'Empty when the post has none' },
              },
            },
          },
        },
        FeatureCollection: {
          type: 'object', required: ['type', 'features'], additionalProperties: false,
          properties: { type: { const: 'FeatureCollection' }, features: { type: 'array', items: ref('Feature') } },
        },
        MapCollection: {
          type: 'object', required: ['type', 'features', 'total', 'extent'],
          properties: {
            type: { const: 'FeatureCollection' },
            total: { type: 'integer', description: 'How many places are inside the box' },
            extent: { oneOf: [{ type: 'null' }, { type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 }] },
            features: {
              type: 'array',
              items: {
                oneOf: [
                  ref('Feature'),
                  {
                    type: 'object', required: ['type', 'geometry', 'properties'],
                    properties: {
                      type: { const: 'Feature' }, geometry: ref('Point'),
                      properties: { type: 'object', required: ['cluster', 'point_count', 'expansion_zoom'], properties: { cluster: { const: true }, point_count: { type: 'integer' }, expansion_zoom: { type: 'integer' } } },
                    },
                  },
                ],
              },
            },
          },
        },
        AttachmentGps: {
          type: 'object', required: ['latitude', 'longitude', 'attachment_id', 'attachment_title'], additionalProperties: false,
          properties: {
            latitude: { type: 'number', minimum: -90, maximum: 90 },
            longitude: { type: 'number', minimum: -180, maximum: 180 },
            attachment_id: { type: 'integer' },
            attachment_title: { type: 'string' },
          },
        },
        Attachment: {
          type: 'object', required: ['id', 'postId', 'position', 'title', 'mimeType', 'size', 'url', 'latitude', 'longitude'], additionalProperties: false,
          properties: {
            id: { type: 'integer' }, postId: { type: 'integer' }, position: { type: 'integer' }, title: { type: 'string' },
            mimeType: { type: 'string', pattern: '^image/' }, size: { type: 'integer' }, url: { type: 'string', format: 'uri' },
            latitude: { type: ['number', 'null'] }, longitude: { type: ['number', 'null'] },
          },
        },
        Error: {
          type: 'object', required: ['code', 'message', 'data'], additionalProperties: false,
          properties: {
            code: { type: 'string' },
            message: { type: 'string' },
            data: { type: 'object', required: ['status'], properties: { status: { type: 'integer' } } },
          },
        },
        NamespaceIndex: {
          type: 'object', required: ['namespace', 'routes', '_links'],
          properties: {
            namespace: { const: 'places/v1' },
            routes: {
              type: 'object',
              additionalProperties: {
                type: 'object', required: ['namespace', 'methods', 'endpoints'],
                properties: { namespace: { type: 'string' }, methods: { type: 'array', items: { type: 'string' } }, endpoints: { type: 'array' } },
              },
            },
            _links: { type: 'object' },
          },
        },
      },
      securitySchemes: {
        applicationPassword: { type: 'http', scheme: 'basic', description: '`email:application-password`, as WordPress Application Passwords (create one with `places app-password create`)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token', description: "The site's sign-in session (browsers)" },
      },
    },
  }
}
