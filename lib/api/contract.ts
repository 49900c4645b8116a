import { z } from 'zod'

// The answers of places/v1 and /ogc as zod schemas: the one description of their shape. The types below are derived
// from them, and lib/api/openapi.ts makes the OpenAPI document's schemas from them (each `id` is a component there).
// Safe to import from client components: zod only, nothing of the server.

export const latitudeSchema = z.number().min(-90).max(90)
export const longitudeSchema = z.number().min(-180).max(180)

/** `[west, south, east, north]` in degrees; west > east when the box crosses the antimeridian (RFC 7946, 5.2). */
export const bboxSchema = z
  .tuple([longitudeSchema, latitudeSchema, longitudeSchema, latitudeSchema])
  .meta({ id: 'BBox', description: '[west, south, east, north] in degrees; west > east when the box crosses the antimeridian' })
export type BBox = z.output<typeof bboxSchema>

export const pointSchema = z
  .strictObject({
    type: z.literal('Point'),
    coordinates: z.tuple([longitudeSchema, latitudeSchema]).meta({ description: '[longitude, latitude]' }),
  })
  .meta({ id: 'Point' })

/** docs/api.md, The Feature: properties are exactly id, title, url and address. */
export const placeFeatureSchema = z
  .strictObject({
    type: z.literal('Feature'),
    geometry: pointSchema.meta({
      description:
        'Where the public may see the post, by its location privacy level (`location_precision` in the import and export format): exact, the point itself; approximate, the centre of its fixed cell of about 1 km; city, the centre of the nearest populated place. A hidden location is no Feature at all (rest_no_geodata).',
    }),
    properties: z.strictObject({
      id: z.int().meta({ description: 'The post id' }),
      title: z.string(),
      url: z.url().meta({ description: "The absolute URL of the post's page" }),
      address: z.string().meta({
        description:
          'Empty when the post has none. At the approximate and city levels, "Place, Region, Country" of the nearest populated place instead of the address typed',
      }),
    }),
  })
  .meta({ id: 'Feature', description: 'A published post with public geodata, at its location privacy level' })
export type PlaceFeature = z.output<typeof placeFeatureSchema>

export const placeCollectionSchema = z
  .strictObject({ type: z.literal('FeatureCollection'), features: z.array(placeFeatureSchema) })
  .meta({ id: 'FeatureCollection' })
export type PlaceCollection = z.output<typeof placeCollectionSchema>

/** What a map at some zoom draws instead of the places close together: their centre and how many they are. */
export const clusterFeatureSchema = z
  .strictObject({
    type: z.literal('Feature'),
    geometry: pointSchema,
    properties: z.strictObject({
      cluster: z.literal(true),
      cluster_id: z.int().min(0).meta({ description: "Ask `cluster_id` with it for the list of the cluster's places (as supercluster's getLeaves)" }),
      point_count: z.int().meta({ description: 'How many places the cluster holds' }),
      expansion_zoom: z.int().meta({ description: 'The zoom at which the cluster splits' }),
    }),
    bbox: bboxSchema.meta({ description: "The box of the cluster's places (RFC 7946, 5)" }),
  })
  .meta({ id: 'ClusterFeature' })
export type ClusterFeature = z.output<typeof clusterFeatureSchema>

/**
 * A collection for the map (`bbox` or `cluster`): as any other, plus two foreign members (RFC 7946, 6.1): `total`,
 * the number of places inside the box, and `extent`, the box of every place of the post type and category.
 */
export function mapCollectionOf<F extends z.ZodType>(feature: F) {
  return z.strictObject({
    type: z.literal('FeatureCollection'),
    total: z.int().min(0).meta({ description: 'How many places are inside the box' }),
    extent: bboxSchema.nullable().meta({ description: 'The box of every place of the post type and category; null when there is none' }),
    features: z.array(feature),
  })
}
export const mapCollectionSchema = mapCollectionOf(z.union([placeFeatureSchema, clusterFeatureSchema])).meta({
  id: 'MapCollection',
  description: 'With bbox: places; with cluster=true: clusters and places',
})
export type MapCollection<F> = Omit<z.output<typeof mapCollectionSchema>, 'features'> & { features: F[] }

/** docs/api.md, Types in the attachment GPS result. */
export const attachmentGpsSchema = z
  .strictObject({ latitude: latitudeSchema, longitude: longitudeSchema, attachment_id: z.int(), attachment_title: z.string() })
  .meta({ id: 'AttachmentGps' })
export type AttachmentGps = z.output<typeof attachmentGpsSchema>

/** An uploaded image, as POST /media answers it. */
export const attachmentSchema = z
  .strictObject({
    id: z.int(),
    postId: z.int(),
    position: z.int(),
    title: z.string(),
    caption: z.string().meta({ description: "Shown under the photo on its post's page (WordPress's caption)" }),
    altText: z.string().meta({ description: "Read out in the photo's place (WordPress's alt text); empty: the title is" }),
    mimeType: z.string().regex(/^image\//),
    size: z.int(),
    url: z.url().meta({ description: 'Where visitors load it' }),
    thumbnailUrl: z
      .url()
      .nullable()
      .meta({ description: 'Its smallest size (160 px wide), a JPEG any browser shows, HEIC and TIFF included; null when it could not be decoded' }),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
    locationSource: z.enum(['gps', 'track', 'hand']).nullable().meta({
      description:
        "Where the point came from: the file's EXIF GPS, the photo's time on a GPS track (`places locate --from-track`, Admin → Trips → Place photos), or an editor's hand on that review's map; null without a point",
    }),
  })
  .meta({ id: 'Attachment' })
export type Attachment = z.output<typeof attachmentSchema>

/**
 * A photo as a page shows it: sizes of the same image in JPEG and WebP for `srcset`, never with location metadata.
 * `width` and `height` are the largest size's, so the page can reserve the image's aspect ratio before it loads.
 */
export const pictureSchema = z
  .strictObject({
    alt: z.string().meta({ description: "The attachment's title" }),
    width: z.int().min(1),
    height: z.int().min(1),
    src: z.url().meta({ description: 'The medium JPEG' }),
    srcset: z.string().meta({ description: 'The JPEG sizes: `URL 160w, URL 800w, URL 1600w`' }),
    webpSrcset: z.string().meta({ description: 'The same sizes as WebP' }),
  })
  .meta({ id: 'Picture' })
export type Picture = z.output<typeof pictureSchema>

/** WordPress's error shape (docs/api.md, Errors); `data` may carry more, e.g. `params` for rest_invalid_param. */
export const errorSchema = z
  .strictObject({
    code: z.string(),
    message: z.string(),
    data: z.looseObject({
      status: z.int(),
      params: z
        .union([z.record(z.string(), z.string()), z.array(z.string())])
        .optional()
        .meta({ description: 'rest_invalid_param: what is wrong with each parameter; rest_missing_callback_param: the names of those missing' }),
    }),
  })
  .meta({ id: 'Error' })
export type ErrorBody = z.output<typeof errorSchema>

const argSchema = z.strictObject({ type: z.string(), required: z.boolean(), description: z.string(), default: z.unknown().optional() })
const linksSchema = z.record(z.string(), z.array(z.strictObject({ href: z.url() })))

/** GET /places/v1: the namespace index WordPress gives for a namespace. */
export const namespaceIndexSchema = z
  .strictObject({
    namespace: z.literal('places/v1'),
    routes: z.record(
      z.string(),
      z.strictObject({
        namespace: z.literal('places/v1'),
        methods: z.array(z.string()),
        endpoints: z.array(z.strictObject({ methods: z.array(z.string()), args: z.record(z.string(), argSchema) })),
        _links: linksSchema.optional(),
      }),
    ),
    _links: linksSchema,
  })
  .meta({ id: 'NamespaceIndex' })
export type NamespaceIndex = z.output<typeof namespaceIndexSchema>
export type NamespaceArg = z.output<typeof argSchema>

/** A route of the site's REST index (GET /wp-json/): its namespace ('' for the index itself), methods and arguments. */
const indexRouteSchema = z.strictObject({
  namespace: z.string(),
  methods: z.array(z.string()),
  endpoints: z.array(z.strictObject({ methods: z.array(z.string()), args: z.record(z.string(), argSchema) })),
  _links: linksSchema.optional(),
})

/** GET /wp-json/: the index WordPress gives of its REST API, where clients discover the namespaces and routes. */
export const restIndexSchema = z
  .strictObject({
    name: z.string(),
    description: z.string(),
    url: z.url().meta({ description: 'SITE_URL' }),
    home: z.url().meta({ description: 'SITE_URL' }),
    gmt_offset: z.number().meta({ description: "The site's time zone's offset from UTC now, in hours" }),
    timezone_string: z.string().meta({ description: "The site's time zone (IANA)" }),
    namespaces: z.array(z.string()),
    authentication: z.record(z.string(), z.unknown()).meta({
      description: "Empty: application passwords are made in the admin or with `places app-password create`, not by WordPress's authorisation flow",
    }),
    routes: z.record(z.string(), indexRouteSchema).meta({ description: 'Relative to /wp-json; path parameters as WordPress writes them, `(?P<id>[\\d]+)`' }),
    _links: linksSchema,
  })
  .meta({ id: 'RestIndex' })
export type RestIndex = z.output<typeof restIndexSchema>

/** GET /wp-json/oembed/1.0/embed: an oEmbed 1.0 `rich` answer, as WordPress gives it (docs/api.md, oEmbed). */
const oembedMembers = {
  version: z.literal('1.0'),
  provider_name: z.string(),
  provider_url: z.url(),
  author_name: z.string(),
  author_url: z.url(),
  title: z.string(),
  thumbnail_url: z.url().optional(),
  thumbnail_width: z.int().optional(),
  thumbnail_height: z.int().optional(),
}

/** A map (`rich`: an <iframe> of /embed), or a post without a public place as a link to its page (`link`). */
export const oembedSchema = z
  .discriminatedUnion('type', [
    z.strictObject({
      ...oembedMembers,
      type: z.literal('rich'),
      width: z.int(),
      height: z.int(),
      html: z.string().meta({ description: 'An <iframe> of /embed' }),
    }),
    z.strictObject({ ...oembedMembers, type: z.literal('link') }),
  ])
  .meta({ id: 'OEmbed' })

/** GET /places/v1/timeline: how many places of a map view were published in each year or month (docs/api.md, Timeline). */
export const timelineSchema = z
  .strictObject({
    unit: z.enum(['year', 'month']).meta({ description: 'The length of each period' }),
    total: z.int().min(0).meta({ description: 'How many places the view holds, whenever published' }),
    periods: z
      .array(
        z.strictObject({
          start: z.iso.date().meta({ description: "The period's first day, in the site's time zone" }),
          end: z.iso.date().meta({ description: "The period's last day" }),
          count: z.int().min(1),
        }),
      )
      .meta({ description: 'The periods with places, oldest first: `after=start&before=end` lists them' }),
  })
  .meta({ id: 'Timeline' })
export type Timeline = z.output<typeof timelineSchema>

/** A trip's route as the public may see it. */
const tripRouteSchema = z
  .union([
    z
      .strictObject({
        type: z.literal('MultiLineString'),
        coordinates: z.array(z.array(z.tuple([longitudeSchema, latitudeSchema])).min(2)),
      })
      .meta({ id: 'MultiLineString' }),
    z.null(),
  ])
  .meta({
    description:
      "The route at the trip's privacy level (exact; approximate, through the centres of the fixed cells of about 1 km; hidden: null), cut where it enters a privacy zone and at the antimeridian, simplified to within 5 m (100 m in the list)",
  })

/** A published trip (docs/api.md, Trips): its route as the public may see it, and what is said of it. */
export const tripFeatureSchema = z
  .strictObject({
    type: z.literal('Feature'),
    geometry: tripRouteSchema,
    properties: z.strictObject({
      id: z.int().meta({ description: 'The trip id' }),
      slug: z.string(),
      title: z.string(),
      url: z.url().meta({ description: "The absolute URL of the trip's page" }),
      description: z.string().meta({ description: 'Plain text; empty when there is none' }),
      started_at: z.iso.datetime().nullable().meta({ description: 'The first timed point the public may see (UTC); null for routes without times' }),
      ended_at: z.iso.datetime().nullable().meta({ description: 'The last timed point' }),
      distance_m: z
        .number()
        .min(0)
        .meta({ description: 'Metres along what the public may see of the tracks: the parts a privacy zone withholds are not counted' }),
      climb_m: z.number().min(0).nullable().meta({ description: 'Metres climbed; null when the tracks have no elevations' }),
      posts: z.array(z.int()).meta({ description: "The ids of the trip's published posts, oldest first: GET /geojson/{id} gives each" }),
    }),
  })
  .meta({ id: 'TripFeature', description: 'A published trip' })
export type TripFeature = z.output<typeof tripFeatureSchema>

export const tripCollectionSchema = z
  .strictObject({ type: z.literal('FeatureCollection'), features: z.array(tripFeatureSchema) })
  .meta({ id: 'TripCollection' })
export type TripCollection = z.output<typeof tripCollectionSchema>

// OGC API – Features, Part 1: Core: the documents of /ogc, as far as this site fills them.

export const ogcLinkSchema = z
  .strictObject({ href: z.url(), rel: z.string(), type: z.string().optional(), title: z.string().optional() })
  .meta({ id: 'OgcLink' })
export type OgcLink = z.output<typeof ogcLinkSchema>

export const ogcLandingPageSchema = z.strictObject({ title: z.string(), description: z.string(), links: z.array(ogcLinkSchema) }).meta({ id: 'OgcLandingPage' })
export type OgcLandingPage = z.output<typeof ogcLandingPageSchema>

export const ogcConformanceSchema = z.strictObject({ conformsTo: z.array(z.url()) }).meta({ id: 'OgcConformance' })
export type OgcConformance = z.output<typeof ogcConformanceSchema>

export const ogcCollectionSchema = z
  .strictObject({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    itemType: z.literal('feature'),
    crs: z.array(z.url()),
    extent: z.strictObject({
      spatial: z.strictObject({ bbox: z.array(bboxSchema), crs: z.url() }),
      temporal: z
        .strictObject({ interval: z.array(z.tuple([z.iso.datetime().nullable(), z.iso.datetime().nullable()])), trs: z.url() })
        .meta({ description: 'The first and the last publication date of its places; of trips, their first and last times (null: none has times)' }),
    }),
    links: z.array(ogcLinkSchema),
  })
  .meta({ id: 'OgcCollection' })
export type OgcCollection = z.output<typeof ogcCollectionSchema>

export const ogcCollectionsSchema = z.strictObject({ links: z.array(ogcLinkSchema), collections: z.array(ogcCollectionSchema) }).meta({ id: 'OgcCollections' })
export type OgcCollections = z.output<typeof ogcCollectionsSchema>

export const ogcFeatureSchema = z
  .strictObject({
    type: z.literal('Feature'),
    id: z.int().meta({ description: 'The post id' }),
    geometry: pointSchema,
    properties: z.strictObject({
      title: z.string(),
      url: z.url(),
      address: z.string(),
      date: z.iso.datetime().meta({ description: 'When the post was published (ISO 8601, UTC): what datetime filters on' }),
    }),
    links: z.array(ogcLinkSchema).optional(),
  })
  .meta({ id: 'OgcFeature' })
export type OgcFeature = z.output<typeof ogcFeatureSchema>

export const ogcTripFeatureSchema = z
  .strictObject({
    type: z.literal('Feature'),
    id: z.int().meta({ description: 'The trip id' }),
    geometry: tripRouteSchema,
    properties: tripFeatureSchema.shape.properties.omit({ id: true, posts: true }),
    links: z.array(ogcLinkSchema).optional(),
  })
  .meta({ id: 'OgcTripFeature', description: 'A published trip of the collection `trips`, as GET /places/v1/trips/{id} gives it' })
export type OgcTripFeature = z.output<typeof ogcTripFeatureSchema>

/** The items of a collection: the posts of a type, or the trips. */
const itemsOf = <Feature extends z.ZodType>(feature: Feature, id: string) =>
  z
    .strictObject({
      type: z.literal('FeatureCollection'),
      features: z.array(feature),
      numberMatched: z.int().min(0),
      numberReturned: z.int().min(0),
      timeStamp: z.iso.datetime(),
      links: z.array(ogcLinkSchema),
    })
    .meta({ id })
export const ogcItemsSchema = itemsOf(ogcFeatureSchema, 'OgcItems')
export type OgcItems = z.output<typeof ogcItemsSchema>
export const ogcTripItemsSchema = itemsOf(ogcTripFeatureSchema, 'OgcTripItems')
export type OgcTripItems = z.output<typeof ogcTripItemsSchema>

// The map's `_embed` (docs/api.md, _embed): what a popup and the list show of a place besides the four properties,
// as a foreign member (RFC 7946, 6.1) so that `properties` stay the contract's four.

export const embeddedCategorySchema = z.strictObject({ id: z.int(), name: z.string(), slug: z.string() }).meta({ id: 'EmbeddedCategory' })

export const placeEmbeddedSchema = z
  .strictObject({
    date: z.iso.datetime().meta({ description: 'When the post was published (ISO 8601, UTC)' }),
    categories: z.array(embeddedCategorySchema).meta({ description: 'Its categories, by name' }),
    picture: pictureSchema.nullable().meta({ description: "The post's first picture; null when it has none" }),
  })
  .meta({ id: 'PlaceEmbedded' })
export type PlaceEmbedded = z.output<typeof placeEmbeddedSchema>

/** A place Feature with `_embed`: the Feature and its `_embedded` member. */
export const embeddedPlaceFeatureSchema = placeFeatureSchema.extend({ _embedded: placeEmbeddedSchema }).meta({ id: 'EmbeddedFeature' })
export type EmbeddedPlaceFeature = z.output<typeof embeddedPlaceFeatureSchema>

export const embeddedCollectionSchema = z
  .strictObject({ type: z.literal('FeatureCollection'), features: z.array(embeddedPlaceFeatureSchema) })
  .meta({ id: 'EmbeddedFeatureCollection', description: 'With _embed' })

export const clusterEmbeddedSchema = z
  .strictObject({
    categories: z.array(embeddedCategorySchema.extend({ count: z.int().min(1) })).meta({
      description:
        "The top-level categories of its places, most places first, and how many of them each has: a place counts once, in its first category's (the one of lowest id); places with no category are not counted",
    }),
  })
  .meta({ id: 'ClusterEmbedded' })
export type ClusterEmbedded = z.output<typeof clusterEmbeddedSchema>

/** A cluster Feature with `_embed`: the mix of its places' categories, which the map draws round it. */
export const embeddedClusterFeatureSchema = clusterFeatureSchema.extend({ _embedded: clusterEmbeddedSchema }).meta({ id: 'EmbeddedClusterFeature' })
export type EmbeddedClusterFeature = z.output<typeof embeddedClusterFeatureSchema>

export const embeddedMapCollectionSchema = mapCollectionOf(z.union([embeddedPlaceFeatureSchema, embeddedClusterFeatureSchema])).meta({
  id: 'EmbeddedMapCollection',
  description: 'With _embed and bbox or cluster=true',
})
