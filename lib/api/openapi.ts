import { z } from 'zod'
import type { Config } from '../config'
import type { AttachmentDto } from '../media/storage'
import { formatParam, itemsParams, OAS30_TYPE } from '../ogc/features'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from '../ogc/limits'
import { collectionParams, featureParams, postIdSchema } from '../places/schemas'
import { exportParams } from '../places/formats/public'
import { timelineParams } from '../places/timeline'
import { MEDIA_TYPES } from '../places/formats/names'
import {
  attachmentGpsSchema,
  attachmentSchema,
  type Attachment,
  embeddedCollectionSchema,
  embeddedMapCollectionSchema,
  embeddedPlaceFeatureSchema,
  errorSchema,
  mapCollectionSchema,
  namespaceIndexSchema,
  ogcCollectionSchema,
  ogcCollectionsSchema,
  ogcConformanceSchema,
  ogcFeatureSchema,
  ogcItemsSchema,
  ogcTripFeatureSchema,
  ogcTripItemsSchema,
  ogcLandingPageSchema,
  oembedSchema,
  placeCollectionSchema,
  placeFeatureSchema,
  restIndexSchema,
  timelineSchema,
  tripCollectionSchema,
  tripFeatureSchema,
} from './contract'

// The OpenAPI 3.1 description of every route of places/v1 and of the OGC API – Features (/ogc): served at
// /places/v1/openapi.json, the source of the WordPress-style namespace index (GET /places/v1,
// lib/api/namespace-index.ts), and checked in e2e/api/openapi.spec.ts: against the real responses, and against the
// route files (a route without its entry here fails there). The prose is written here; every schema is made from the
// zod schemas the routes parse and answer with (lib/api/contract.ts), by zod's own JSON Schema output.

type Schema = Record<string, unknown>
type Parameter = { name: string; in: 'query' | 'path' | 'header'; required?: boolean; description: string; schema: Schema; style?: 'form'; explode?: boolean }
type ResponseObject = { description: string; headers?: Record<string, { description: string; schema: Schema }>; content?: Record<string, { schema: Schema }> }
type Operation = {
  operationId: string
  summary: string
  description?: string
  parameters?: Parameter[]
  requestBody?: { required: boolean; content: Record<string, { schema: Schema }> }
  security?: Record<string, string[]>[]
  responses: Record<string, ResponseObject>
}
type Server = { url: string; description: string }
type PathItem = { servers?: Server[]; get?: Operation; post?: Operation }
export type OpenApiDocument = {
  openapi: '3.1.0'
  info: Record<string, unknown>
  servers: Server[]
  paths: Record<string, PathItem>
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Schema> }
}
export type OgcOpenApiDocument = Omit<OpenApiDocument, 'openapi' | 'components'> & {
  openapi: '3.0.3'
  components: { schemas: Record<string, Schema> }
}

// The answer POST /media gives is the one lib/media/storage.ts makes: the schema and that type must agree both ways.
const sameAttachment: [AttachmentDto, Attachment] extends [Attachment, AttachmentDto] ? true : never = true
void sameAttachment

const COMPONENTS = '#/components/schemas/'

/**
 * The JSON Schema dialect: OpenAPI 3.1's (JSON Schema 2020-12) for the whole site's document, OpenAPI 3.0's schema
 * objects for the OGC API's own (the `oas30` class), both from the same zod schemas by zod's own output.
 */
type Target = 'draft-2020-12' | 'openapi-3.0'

/** The schemas, parameters and answers of a document, as `target` writes schemas. */
function writer(target: Target) {
  /**
   * A zod schema as JSON Schema for the document. A schema with an `id` (`.meta({ id })`) is a component, and is
   * referred to: zod puts those it meets inside others in `$defs` (`definitions` for OpenAPI 3.0), which become
   * references to the components.
   */
  function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): Schema {
    const id: unknown = z.globalRegistry.get(schema)?.id
    if (typeof id === 'string') return { $ref: `${COMPONENTS}${id}` }
    const { $schema: _, $defs: __, definitions: ___, ...rest } = z.toJSONSchema(schema, { io, target }) as Schema
    return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', `"${COMPONENTS}`).replaceAll('"#/definitions/', `"${COMPONENTS}`)) as Schema
  }

  /** Every schema with an `id` (`.meta({ id })`), as the document's components. */
  function components(): Record<string, Schema> {
    const { schemas } = z.toJSONSchema(z.globalRegistry, { target, uri: (id) => `${COMPONENTS}${id}` })
    return Object.fromEntries(
      Object.entries(schemas).map(([id, schema]) => {
        const { $schema: _, $id: __, ...rest } = schema as Schema
        return [id, rest]
      }),
    )
  }

  /** A parameter from a zod schema of its string; its description is the schema's. */
  function parameter(name: string, where: Parameter['in'], schema: z.ZodType, required = where === 'path'): Parameter {
    const { description, ...rest } = jsonSchema(schema, 'input')
    return { name, in: where, ...(required ? { required } : {}), description: typeof description === 'string' ? description : '', schema: rest }
  }
  const ref = (schema: z.ZodType): Schema => jsonSchema(schema)
  const json = (description: string, schema: z.ZodType): ResponseObject => ({ description, content: { 'application/json': { schema: ref(schema) } } })
  return {
    jsonSchema,
    components,
    parameter,
    ref,
    json,
    queryParameters: (params: Record<string, z.ZodType>) => Object.entries(params).map(([name, schema]) => parameter(name, 'query', schema)),
    error: (description: string) => json(description, errorSchema),
  }
}
type Writer = ReturnType<typeof writer>

const notModified: ResponseObject = { description: 'Not modified: the If-None-Match header names the current ETag. No body.' }
const credentials: Record<string, string[]>[] = [{ applicationPassword: [] }, { sessionCookie: [] }]

type DocumentConfig = Pick<Config, 'siteUrl' | 'sharedCacheSeconds'>
const made = new Map<string, object>()

/** A document made once per config (zod's JSON Schema output is not free). */
function memo<T extends object>(name: string, config: DocumentConfig, make: () => T): T {
  const key = JSON.stringify([name, config.siteUrl, config.sharedCacheSeconds])
  if (!made.has(key)) made.set(key, make())
  return made.get(key) as T
}

/** The OpenAPI 3.1 document of every route of the site (served at /places/v1/openapi.json). */
export function getOpenApiDocument(config: DocumentConfig): OpenApiDocument {
  return memo('3.1', config, () => makeDocument(config))
}

/**
 * The OGC API – Features on its own, in OpenAPI 3.0 as the standard's `oas30` class asks (served at /ogc/api, the
 * landing page's `service-desc`): its paths relative to /ogc, and only the components they use.
 */
export function getOgcOpenApiDocument(config: DocumentConfig): OgcOpenApiDocument {
  return memo('3.0', config, () => {
    const w = writer('openapi-3.0')
    const paths = Object.fromEntries(Object.entries(ogcPaths(w)).map(([key, item]) => [key.slice('/ogc'.length) || '/', item]))
    return {
      openapi: '3.0.3',
      info: {
        title: 'Places: OGC API – Features',
        version: '1.0.0',
        description: 'Published places as OGC API – Features, Part 1: Core: one collection per post type, GeoJSON or HTML.',
      },
      servers: [{ url: `${config.siteUrl}/ogc`, description: 'This site' }],
      paths,
      components: { schemas: used(w.components(), paths) },
    }
  })
}

/** The components `root` refers to, and those they refer to in turn. */
function used(components: Record<string, Schema>, root: object): Record<string, Schema> {
  const names = new Set<string>()
  const visit = (value: object) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      if (!names.has(name!)) {
        names.add(name!)
        visit(components[name!]!)
      }
    }
  }
  visit(root)
  return Object.fromEntries(Object.entries(components).filter(([name]) => names.has(name)))
}

function makeDocument({ siteUrl, sharedCacheSeconds }: DocumentConfig): OpenApiDocument {
  const w = writer('draft-2020-12')
  const { jsonSchema, ref, parameter, queryParameters, json, error } = w
  const postId = parameter('id', 'path', postIdSchema)
  const tripId = parameter('id', 'path', postIdSchema.meta({ description: 'A trip id (digits only; anything else matches no route: 404 `rest_no_route`).' }))
  const geojson = (description: string, schema: z.ZodType): ResponseObject => ({
    description,
    headers: {
      ETag: { description: 'Changes whenever any data the answer depends on changes', schema: jsonSchema(z.string()) },
      'Cache-Control': {
        description: 'Browsers revalidate with If-None-Match each time; shared caches may serve it for SHARED_CACHE_SECONDS first (docs/api.md, Caching)',
        schema: jsonSchema(z.literal(`public, max-age=0, s-maxage=${sharedCacheSeconds}`)),
      },
    },
    content: { 'application/geo+json': { schema: ref(schema) } },
  })
  // Clients written for the WordPress plugin call /wp-json/places/v1/…: places/v1 answers there too; /ogc does not.
  const placesServers: Server[] = [
    { url: siteUrl, description: 'This site' },
    { url: `${siteUrl}/wp-json`, description: 'The same routes where WordPress clients look for them' },
  ]
  const places = (item: Omit<PathItem, 'servers'>): PathItem => ({ servers: placesServers, ...item })

  return {
    openapi: '3.1.0',
    info: {
      title: 'Places REST API (places/v1)',
      version: '1.0.0',
      description:
        'Posts with geodata as GeoJSON (RFC 7946), compatible with the WordPress Places plugin. Every places/v1 route also answers under `/wp-json` (its `servers`); the OGC API – Features (`/ogc`) only at the site itself. Errors have WordPress\'s shape: `{"code", "message", "data": {"status"}}`.',
    },
    servers: [{ url: siteUrl, description: 'This site' }],
    paths: {
      '/places/v1': places({
        get: {
          operationId: 'getNamespaceIndex',
          summary: 'The routes of the places/v1 namespace, as WordPress describes a namespace',
          responses: { 200: json('The namespace index', namespaceIndexSchema) },
        },
      }),
      '/places/v1/openapi.json': places({
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          responses: { 200: json('OpenAPI 3.1', z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) })) },
        },
      }),
      '/places/v1/geojson': places({
        get: {
          operationId: 'getPlaces',
          summary: 'Published posts with public geodata, as a FeatureCollection',
          description: 'Newest publish date first, ties by id descending. A repeated parameter keeps its last value. Unknown parameters are ignored.',
          parameters: queryParameters(collectionParams),
          responses: {
            200: geojson(
              'The places; with bbox or cluster, a map collection; with _embed, each place with `_embedded`',
              z.union([placeCollectionSchema, mapCollectionSchema, embeddedCollectionSchema, embeddedMapCollectionSchema]),
            ),
            304: notModified,
            400: error('An invalid parameter (`rest_invalid_param`, `data.params` names each)'),
          },
        },
      }),
      '/places/v1/export': places({
        get: {
          operationId: 'exportPlaces',
          summary: 'What the public sees of a map view, as a file: GeoJSON, KML, GPX or CSV',
          description:
            'Every place GET /geojson would list for the same post_type, category, tag, search and bbox (not a page: all of them, newest first), as an attachment to save. GeoJSON is the import format of `places import`; KML and CSV hold every field but the id; GPX waypoints hold the title, content, date and point (docs/api.md, Export). A repeated parameter keeps its last value; unknown parameters are ignored.',
          parameters: queryParameters(exportParams),
          responses: {
            200: {
              description: 'The file, with `Content-Disposition: attachment` naming it (`places-{post_type}.{format}`)',
              content: {
                [MEDIA_TYPES.geojson]: {
                  schema: ref(z.looseObject({ type: z.literal('FeatureCollection'), features: z.array(z.looseObject({ type: z.literal('Feature') })) })),
                },
                ...Object.fromEntries(
                  [MEDIA_TYPES.kml, MEDIA_TYPES.gpx, MEDIA_TYPES.csv].map((type) => [
                    type,
                    { schema: jsonSchema(z.string().meta({ description: 'The file' })) },
                  ]),
                ),
              },
            },
            400: error('An invalid parameter (`rest_invalid_param`, `data.params` names each)'),
          },
        },
      }),
      '/places/v1/timeline': places({
        get: {
          operationId: 'getTimeline',
          summary: 'How many places of a map view were published in each year or month',
          description:
            "The places GET /geojson would list for the same post_type, category, tag, search and bbox, counted by period of the site's time zone: the map's timeline (docs/api.md, Timeline). A repeated parameter keeps its last value; unknown parameters are ignored.",
          parameters: queryParameters(timelineParams),
          responses: {
            200: json('The periods that hold places, oldest first', timelineSchema),
            304: notModified,
            400: error('An invalid parameter (`rest_invalid_param`, `data.params` names each)'),
          },
        },
      }),
      '/places/v1/trips': places({
        get: {
          operationId: 'getTrips',
          summary: 'Published trips, each its route as a MultiLineString, as a FeatureCollection',
          description:
            "Newest first. Each route is what the public may see of the trip's tracks (docs/api.md, Trips), simplified to within 100 m for a small map; GET /trips/{id} gives it in detail.",
          responses: { 200: geojson('The trips', tripCollectionSchema), 304: notModified },
        },
      }),
      '/places/v1/trips/{id}': places({
        get: {
          operationId: 'getTrip',
          summary: 'One published trip, its route in detail, as a Feature',
          parameters: [tripId],
          responses: {
            200: geojson('The trip', tripFeatureSchema),
            304: notModified,
            404: error('`rest_trip_invalid_id` (no such published trip) or `rest_no_route`'),
          },
        },
      }),
      '/places/v1/geojson/{id}': places({
        get: {
          operationId: 'getPlace',
          summary: 'One published post with public geodata, as a Feature',
          parameters: [postId, ...queryParameters(featureParams)],
          responses: {
            200: geojson('The place; with _embed, with `_embedded`', z.union([placeFeatureSchema, embeddedPlaceFeatureSchema])),
            304: notModified,
            404: error('`rest_post_invalid_id` (no such published post), `rest_no_geodata` (no public location) or `rest_no_route`'),
          },
        },
      }),
      '/places/v1/attachment-exif-gps/{id}': places({
        get: {
          operationId: 'getAttachmentExifGps',
          summary: 'Where the first photo of a post with usable EXIF GPS was taken',
          description:
            'Images in their order (position, then upload time, then id); out-of-range coordinates and 0,0 count as no GPS. Needs `edit_post` on the post. Sent with `Cache-Control: private, no-store`.',
          parameters: [postId],
          security: credentials,
          responses: {
            200: json('The GPS of the first suitable image', attachmentGpsSchema),
            401: error('No credentials (`rest_forbidden`), or wrong ones (`rest_invalid_credentials`)'),
            403: error('No `edit_post` on this post, or no such post (`rest_forbidden`)'),
            404: error('No attached image has usable GPS (`rest_no_exif_gps`; `data.images_checked` counts the images looked at)'),
          },
        },
      }),
      '/places/v1/media': places({
        post: {
          operationId: 'uploadMedia',
          summary: 'Upload one image to a post',
          description:
            "The raw file is the body (as WordPress's POST /wp/v2/media takes it); its type is decided from its bytes. Needs `edit_post` on the post. Visitors load a copy without location metadata.",
          parameters: [
            parameter('post', 'query', postIdSchema.meta({ description: 'The id of the post the image is for.' }), true),
            parameter('title', 'query', z.string().meta({ description: 'The attachment title; default: the file name without its extension.' })),
            parameter('Content-Disposition', 'header', z.string().meta({ description: '`attachment; filename="photo.jpg"`: the file name.' })),
          ],
          requestBody: { required: true, content: { 'image/*': { schema: jsonSchema(z.string().meta({ contentMediaType: 'application/octet-stream' })) } } },
          security: credentials,
          responses: {
            201: json('The stored attachment', attachmentSchema),
            400: error('An invalid parameter'),
            401: error('No or wrong credentials'),
            403: error('No `edit_post` on that post'),
            413: error('Larger than the upload limit (`rest_upload_file_too_big`)'),
            415: error('Not an image Places accepts (`rest_upload_invalid_type`)'),
            422: error(
              'An image that does not decode (`rest_upload_unknown_error`), or a HEIC the decoder did not finish within its time limit (`rest_upload_heic_time_limit`)',
            ),
            429: {
              ...error('The user runs as many uploads at once as one may already (`too_many_uploads`); `data.retryAfter` is the Retry-After'),
              headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: jsonSchema(z.string().regex(/^[1-9]\d*$/)) } },
            },
          },
        },
      }),
      // WordPress's own routes, where its clients look: the index they discover the API by (lib/api/rest-index.ts)
      // and oEmbed. Only at the site itself: they are under /wp-json already.
      '/wp-json/': {
        get: {
          operationId: 'getRestIndex',
          summary: "The site's REST API as WordPress describes it: namespaces and every route under /wp-json with its arguments",
          description:
            'Also `/?rest_route=/`. Pages send `Link: <{SITE_URL}/wp-json/>; rel="https://api.w.org/"`, by which clients find it (docs/api.md, Discovery).',
          responses: { 200: json('The index; with an ETag, and cached as the GeoJSON routes (docs/api.md, Caching)', restIndexSchema), 304: notModified },
        },
      },
      '/wp-json/oembed/1.0/embed': {
        get: {
          operationId: 'getOEmbed',
          summary: 'How to embed a page of this site (the map, a post with a public place), as WordPress answers oEmbed',
          parameters: [
            parameter('url', 'query', z.url().meta({ description: 'The URL of the page to embed.' }), true),
            parameter('format', 'query', z.enum(['json', 'xml']).default('json').meta({ description: 'The oEmbed response format.' })),
            parameter('maxwidth', 'query', z.int().min(1).meta({ description: 'The maximum width of the embed frame in pixels.' })),
            parameter('maxheight', 'query', z.int().min(1).meta({ description: 'The maximum height of the embed frame in pixels.' })),
          ],
          responses: {
            200: json('The embed; with format=xml, the same members as XML', oembedSchema),
            400: error('No `url` (`rest_missing_callback_param`), or an invalid parameter (`rest_invalid_param`)'),
            404: error('Not a page of this site that embeds (`oembed_invalid_url`)'),
          },
        },
      },
      ...ogcPaths(w),
    },
    components: {
      schemas: w.components(),
      securitySchemes: {
        applicationPassword: {
          type: 'http',
          scheme: 'basic',
          description: '`email:application-password`, as WordPress Application Passwords (create one with `places app-password create`)',
        },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'next-auth.session-token', description: "The site's sign-in session (browsers)" },
      },
    },
  }
}

/** The OGC API – Features (/ogc): in the site's document, and alone in the OGC API's own. */
function ogcPaths({ error, ref, jsonSchema, parameter, queryParameters }: Writer): Record<string, PathItem> {
  /** An OGC answer: the document as `type`, or, with f=html or a browser's Accept, a page to browse. */
  const ogc = (description: string, schema: z.ZodType, type = 'application/json'): ResponseObject => ({
    description,
    headers: { ETag: { description: 'Weak; changes whenever the data the answer depends on changes', schema: jsonSchema(z.string()) } },
    content: { [type]: { schema: ref(schema) }, 'text/html': { schema: { type: 'string' } } },
  })
  /** An OGC error: WordPress's JSON error, or with f=html or a browser's Accept, a page saying it. */
  const ogcError = (description: string): ResponseObject => {
    const { content } = error(description)
    return { description, content: { ...content, 'text/html': { schema: { type: 'string' } } } }
  }
  const ogcFormat = parameter('f', 'query', formatParam)
  const ogcBadQuery = ogcError('An invalid `f`, or an unknown parameter (`rest_invalid_param`)')
  const collectionId = parameter('collectionId', 'path', z.string().meta({ description: 'A post type with public places, or `trips`' }))
  // The items' paging and box as the standard defines these parameters (integers, an array of numbers), though they
  // are read from their text (lib/ogc/features.ts, itemsParams).
  const standard: Record<string, Partial<Parameter>> = {
    limit: { schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }, style: 'form', explode: false },
    offset: { schema: { type: 'integer', minimum: 0, maximum: MAX_OFFSET, default: 0 }, style: 'form', explode: false },
    bbox: { schema: { type: 'array', minItems: 4, maxItems: 4, items: { type: 'number' } }, style: 'form', explode: false },
  }
  const itemsParameters = queryParameters(itemsParams).map((p) => ({ ...p, ...standard[p.name] }))
  return {
    '/ogc': {
      get: {
        operationId: 'getOgcLandingPage',
        summary: 'OGC API – Features: the landing page',
        parameters: [ogcFormat],
        responses: { 200: ogc('Links to the API definition, conformance and collections', ogcLandingPageSchema), 304: notModified, 400: ogcBadQuery },
      },
    },
    '/ogc/api': {
      get: {
        operationId: 'getOgcApiDefinition',
        summary: "OGC API – Features: its definition alone, in OpenAPI 3.0 (the landing page's `service-desc`)",
        responses: {
          200: {
            description: 'OpenAPI 3.0, its paths relative to /ogc',
            content: { [OAS30_TYPE]: { schema: ref(z.looseObject({ openapi: z.literal('3.0.3'), paths: z.record(z.string(), z.unknown()) })) } },
          },
        },
      },
    },
    '/ogc/conformance': {
      get: {
        operationId: 'getOgcConformance',
        summary: 'OGC API – Features: the conformance classes met',
        parameters: [ogcFormat],
        responses: { 200: ogc('The classes', ogcConformanceSchema), 304: notModified, 400: ogcBadQuery },
      },
    },
    '/ogc/collections': {
      get: {
        operationId: 'getOgcCollections',
        summary: 'OGC API – Features: one collection per post type with public places',
        parameters: [ogcFormat],
        responses: { 200: ogc('The collections', ogcCollectionsSchema), 304: notModified, 400: ogcBadQuery },
      },
    },
    '/ogc/collections/{collectionId}': {
      get: {
        operationId: 'getOgcCollection',
        summary: 'OGC API – Features: one collection',
        parameters: [collectionId, ogcFormat],
        responses: {
          200: ogc('The collection', ogcCollectionSchema),
          304: notModified,
          400: ogcBadQuery,
          404: ogcError('No such collection (`ogc_no_collection`)'),
        },
      },
    },
    '/ogc/collections/{collectionId}/items': {
      get: {
        operationId: 'getOgcItems',
        summary: 'OGC API – Features: the places of a collection, newest first, paged',
        description: 'Unknown parameters are a 400; a repeated parameter keeps its first value.',
        parameters: [collectionId, ...itemsParameters],
        responses: {
          200: ogc(
            'The items (of `trips`, the trips); the Link header has the `next` and `prev` links',
            z.union([ogcItemsSchema, ogcTripItemsSchema]),
            'application/geo+json',
          ),
          304: notModified,
          400: ogcError('An invalid or unknown parameter (`rest_invalid_param`)'),
          404: ogcError('No such collection (`ogc_no_collection`)'),
        },
      },
    },
    '/ogc/collections/{collectionId}/items/{featureId}': {
      get: {
        operationId: 'getOgcItem',
        summary: 'OGC API – Features: one place, or one trip',
        parameters: [collectionId, parameter('featureId', 'path', z.string().meta({ description: 'The post id (of `trips`, the trip id)' })), ogcFormat],
        responses: {
          200: ogc('The place, or the trip', z.union([ogcFeatureSchema, ogcTripFeatureSchema]), 'application/geo+json'),
          304: notModified,
          400: ogcBadQuery,
          404: ogcError('No such collection or feature (`ogc_no_collection`, `ogc_no_feature`)'),
        },
      },
    },
  }
}
