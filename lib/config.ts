import 'server-only'
import { statSync } from 'node:fs'
import { BlockList, isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'
import { LOCATION_PRECISIONS, type LocationPrecision } from './places/location-levels'

const POSTGRES_URL = /^postgres(ql)?:\/\//
const OPENSTREETMAP = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
const PROTOMAPS = '<a href="https://protomaps.com">Protomaps</a>'

// Every setting, with its default; README.md "Configuration" lists the same.
const schema = z.object({
  DATABASE_URL: z
    .string()
    .default('file:./data/places.db')
    .refine((url) => url.startsWith('file:') || POSTGRES_URL.test(url), 'must start with file: (SQLite) or postgres:// (PostgreSQL)'),
  // A direct connection (not through PgBouncer) for the migrations' advisory lock; the same database as DATABASE_URL.
  MIGRATION_DATABASE_URL: z
    .string()
    .refine((url) => POSTGRES_URL.test(url), 'must start with postgres:// or postgresql://')
    .optional(),
  PG_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  UPLOADS_DIR: z.string().min(1).default('./data/uploads'),
  MEDIA_STORAGE: z.enum(['disk', 's3']).default('disk'),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).default('false'),
  // Folders in the bucket: `places/` keeps every key under places/ (a trailing slash is added when missing).
  S3_PREFIX: z
    .string()
    .default('')
    .refine((prefix) => !prefix.startsWith('/') && !prefix.includes('//'), 'must not start with / or hold //'),
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  INCOMING_STALE_SECONDS: z.coerce.number().int().min(0).default(60),
  KEEP_IMAGE_METADATA: z.enum(['true', 'false', '1', '0']).default('false'),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  RESPONSE_CACHE_MB: z.coerce.number().min(0).default(64),
  SHARED_CACHE_SECONDS: z.coerce.number().int().min(0).default(1),
  EMPTY_TRASH_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  // `none`: no tiles at all, the map draws its own world layer alone and asks no third party for anything.
  MAP_TILE_URL: z.string().min(1).default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  // The tiles' credit; without it, OpenStreetMap's (and Protomaps' with MAP_PMTILES).
  MAP_TILE_ATTRIBUTION: z.string().optional(),
  // A vector basemap archive (PMTiles) on this machine, served from /basemap.pmtiles and drawn instead of MAP_TILE_URL.
  MAP_PMTILES: z
    .string()
    .min(1)
    .optional()
    .transform((file) => file && path.resolve(file))
    .refine((file) => !file || statSync(file, { throwIfNoEntry: false })?.isFile(), 'no such file'),
  EMBED_ALLOWED_ORIGINS: z
    .string()
    .default('*')
    .transform((list) => list.split(/[\s,]+/).filter(Boolean))
    .refine(
      (list) =>
        (list.length === 1 && list[0] === 'none') ||
        (list.length > 0 &&
          list.every(
            (entry) => entry === '*' || entry === 'self' || /^https?:\/\/[a-z0-9.-]+(:\d+)?$/i.test(entry) || /^https?:\/\/\*\.[a-z0-9.-]+$/i.test(entry),
          )),
      'must be *, none, or self and origins such as https://example.com (space- or comma-separated)',
    )
    // CSP's keywords are quoted: `self` is this site, `none` no site at all.
    .transform((list) => list.map((entry) => (entry === 'self' || entry === 'none' ? `'${entry}'` : entry))),
  DEFAULT_LOCATION_PRECISION: z.enum(LOCATION_PRECISIONS).default('exact'),
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((entry) => proxyRange(entry) !== null),
      'must be a comma-separated list of IP addresses and CIDR ranges (none of every address, no IPv6 range of IPv4-mapped ones)',
    ),
})

/**
 * A TRUSTED_PROXIES entry as an address and prefix length (`10.0.0.0/8`; a lone address is all its bits), else null.
 * Refused too: a range of every address (`/0`), and an IPv6 range holding the IPv4-mapped addresses (`::/32`), which
 * would trust every IPv4 client; an IPv4-mapped entry (`::ffff:10.0.0.0/104`) is read as the IPv4 range it is.
 */
function proxyRange(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [written = '', prefixText, ...rest] = entry.split('/')
  if (rest.length > 0 || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return null
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(written)?.[1]
  const version = isIP(mapped ?? written)
  if (version === 0) return null
  const bits = version === 4 ? 32 : 128
  const prefix = prefixText === undefined ? bits : Number(prefixText) - (mapped ? 96 : 0)
  if (prefix < 1 || prefix > bits) return null
  const range = { address: mapped ?? written, prefix, family: version === 4 ? ('ipv4' as const) : ('ipv6' as const) }
  if (range.family === 'ipv6') {
    const list = new BlockList()
    list.addSubnet(range.address, prefix, 'ipv6')
    if (list.check('::ffff:0:0', 'ipv6')) return null
  }
  return range
}

/** TRUSTED_PROXIES' addresses and CIDR ranges as one list to check an address against; throws for an entry that is neither. */
export function trustedProxyList(entries: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of entries) {
    const range = proxyRange(entry)
    if (!range) throw new Error(`not a proxy's IP address or CIDR range: ${entry}`)
    list.addSubnet(range.address, range.prefix, range.family)
  }
  return list
}

/** The bucket of S3_BUCKET and its settings (lib/media/store.ts). */
export type S3Settings = {
  bucket: string
  /** any S3-compatible service; the SDK's AWS endpoint for the region when not set */
  endpoint: string | undefined
  region: string
  forcePathStyle: boolean
  /** when not set, the SDK's own chain (an instance role, AWS_* variables) */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** '' or a folder ending in / */
  prefix: string
}

export type Config = {
  databaseUrl: string
  /** where migrations run, when not through DATABASE_URL (a pooler in transaction mode cannot hold their lock) */
  migrationDatabaseUrl: string | undefined
  /** the most connections each process opens to PostgreSQL */
  pgPoolMax: number
  /** the site's public origin, no trailing slash: the base of every properties.url */
  siteUrl: string
  /** local scratch for files being made, and with MEDIA_STORAGE=disk where they are kept */
  uploadsDir: string
  /** where uploaded files are kept: with `s3`, `s3` below is set */
  mediaStorage: 'disk' | 's3'
  /** the bucket, when S3_BUCKET is set (whatever MEDIA_STORAGE says: `places media move-storage` needs both) */
  s3: S3Settings | undefined
  uploadMaxBytes: number
  /** at start, unfinished uploads older than this are removed */
  incomingStaleSeconds: number
  /** serve uploaded images with their metadata (GPS included) instead of copies stripped of it */
  keepImageMetadata: boolean
  /** signs session cookies; from AUTH_SECRET, else made once and kept in ./data/auth-secret (lib/auth/secret.ts) */
  authSecret: string | undefined
  /**
   * the map's tiles: a Leaflet URL template of raster tiles, or (`vector`) the site's own PMTiles archive, and their
   * attribution (HTML, from the operator); null for MAP_TILE_URL=none
   */
  mapTiles: { url: string; attribution: string; vector?: boolean } | null
  /** MAP_PMTILES: the archive's path */
  mapPmtiles: string | undefined
  /** who may frame /embed: its `frame-ancestors` (`*` for any) */
  embedAllowedOrigins: string[]
  /** memory for the public routes' serialised answers (lib/http/cache.ts); 0 turns the cache off */
  responseCacheBytes: number
  /** how long shared caches (a CDN, nginx) may serve a public answer without asking again: `s-maxage` */
  sharedCacheSeconds: number
  /** the location privacy level of a new post that states none (docs/privacy.md) */
  defaultLocationPrecision: LocationPrecision
  /** the proxies whose X-Forwarded-For names the client (lib/auth/client-address.ts); from anyone else it is ignored */
  trustedProxies: BlockList
  /** posts in the Trash longer than this many days are deleted for good (lib/admin/trash.ts); 0 keeps them */
  emptyTrashDays: number
}

let config: Config | undefined

export function getConfig(): Config {
  if (config) return config
  const parsed = schema.safeParse(process.env)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    throw new Error(`Invalid configuration: ${problems.join('; ')}`)
  }
  const env = parsed.data
  if (env.MIGRATION_DATABASE_URL && !POSTGRES_URL.test(env.DATABASE_URL)) {
    throw new Error('Invalid configuration: MIGRATION_DATABASE_URL: only for PostgreSQL, and DATABASE_URL is SQLite')
  }
  if (env.MEDIA_STORAGE === 's3' && !env.S3_BUCKET) throw new Error('Invalid configuration: S3_BUCKET: required with MEDIA_STORAGE=s3')
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) {
    throw new Error('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither (the SDK then finds its own)')
  }
  config = {
    databaseUrl: env.DATABASE_URL,
    migrationDatabaseUrl: env.MIGRATION_DATABASE_URL,
    pgPoolMax: env.PG_POOL_MAX,
    siteUrl: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    uploadsDir: path.resolve(env.UPLOADS_DIR),
    mediaStorage: env.MEDIA_STORAGE,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT,
          region: env.S3_REGION,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
          credentials:
            env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
          prefix: env.S3_PREFIX === '' || env.S3_PREFIX.endsWith('/') ? env.S3_PREFIX : `${env.S3_PREFIX}/`,
        }
      : undefined,
    uploadMaxBytes: env.UPLOAD_MAX_BYTES,
    incomingStaleSeconds: env.INCOMING_STALE_SECONDS,
    keepImageMetadata: env.KEEP_IMAGE_METADATA === 'true' || env.KEEP_IMAGE_METADATA === '1',
    authSecret: env.AUTH_SECRET,
    mapTiles: env.MAP_PMTILES
      ? { url: '/basemap.pmtiles', attribution: env.MAP_TILE_ATTRIBUTION ?? `${PROTOMAPS} ${OPENSTREETMAP}`, vector: true }
      : env.MAP_TILE_URL === 'none'
        ? null
        : { url: env.MAP_TILE_URL, attribution: env.MAP_TILE_ATTRIBUTION ?? OPENSTREETMAP },
    mapPmtiles: env.MAP_PMTILES,
    embedAllowedOrigins: env.EMBED_ALLOWED_ORIGINS,
    responseCacheBytes: Math.round(env.RESPONSE_CACHE_MB * 1024 * 1024),
    sharedCacheSeconds: env.SHARED_CACHE_SECONDS,
    defaultLocationPrecision: env.DEFAULT_LOCATION_PRECISION,
    trustedProxies: trustedProxyList(env.TRUSTED_PROXIES),
    emptyTrashDays: env.EMPTY_TRASH_DAYS,
  }
  return config
}
