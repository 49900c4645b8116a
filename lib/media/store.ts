import 'server-only'
import { createReadStream } from 'node:fs'
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { getConfig, type Config, type S3Settings } from '../config'

// Where uploaded files are kept once whole and accepted (README: Photos, and Deployment's Photos in object storage):
// MEDIA_STORAGE=disk, folders under UPLOADS_DIR, or MEDIA_STORAGE=s3, objects in a bucket of any S3-compatible
// service, under the same names. Three areas:
//   originals/   the file as uploaded, GPS included: read by the server, never served;
//   public/      the copy visitors load, without location metadata;
//   renditions/  the sizes pages show, under names made from their bytes (lib/media/renditions.ts).
// Work in progress is never here: files are made on local scratch (UPLOADS_DIR/incoming) and put here whole, before
// their row commits; they are removed after their row is gone. The bucket stays private: the app serves every file
// (lib/media/attachments.ts) and so decides, per request, who may see it.

export type Area = 'originals' | 'public' | 'renditions'

export type StoredFile = {
  size: number
  /** changes whenever the file does: a stored file is only ever replaced whole */
  etag: string
  lastModified: Date
  /** the file's bytes, fetched only when asked for (a 304 never fetches them) */
  open: () => Promise<ReadableStream<Uint8Array>>
}

export type MediaStore = {
  /** Puts a whole local file in place as `area/key`, replacing what was there; the local file is gone after. */
  put: (area: Area, key: string, localFile: string, contentType: string) => Promise<void>
  /** The file's bytes, or null when there is none. */
  read: (area: Area, key: string) => Promise<Buffer | null>
  /** What serving the file needs, or null when there is none. */
  stat: (area: Area, key: string) => Promise<StoredFile | null>
  /** Removes files; one that is not there is no error. */
  remove: (area: Area, keys: string[]) => Promise<void>
  /** Throws unless the store answers (GET /healthz); the disk store is not asked. */
  check: () => Promise<void>
}

/** Folders under UPLOADS_DIR; originals readable by this user only (they keep their GPS). */
function diskStore(uploadsDir: string): MediaStore {
  const file = (area: Area, key: string) => path.join(uploadsDir, area, key)
  return {
    async put(area, key, localFile) {
      await mkdir(path.dirname(file(area, key)), { recursive: true, ...(area === 'originals' ? { mode: 0o700 } : {}) })
      // Scratch is under UPLOADS_DIR too, so this is a rename: the file appears whole or not at all.
      await rename(localFile, file(area, key))
    },
    read: (area, key) => readFile(file(area, key)).catch(notThere),
    async stat(area, key) {
      const info = await stat(file(area, key)).catch(notThere)
      if (!info?.isFile()) return null
      return {
        size: info.size,
        etag: `"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`,
        lastModified: info.mtime,
        open: () => Promise.resolve(Readable.toWeb(createReadStream(file(area, key))) as ReadableStream<Uint8Array>),
      }
    },
    async remove(area, keys) {
      await Promise.all(keys.map((key) => rm(file(area, key), { force: true })))
    },
    // Not asked: any file call waits for libuv's threads, which an upload's image work fills, and a balancer would
    // take a busy server for a dead one; a folder that cannot be written fails the upload that tries.
    check: () => Promise.resolve(),
  }
}

function notThere(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
  throw error
}

/** A bucket of an S3-compatible service, through the AWS SDK (loaded only when used). */
function s3Store(settings: S3Settings): MediaStore {
  let client: Promise<{ s3: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined
  const connect = () =>
    (client ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: settings.region,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        forcePathStyle: settings.forcePathStyle,
        ...(settings.credentials ? { credentials: settings.credentials } : {}),
        // The SDK's default since 2025 adds CRC checksums to every request and checks them on every answer, which
        // several S3-compatible services refuse or do not send; they are sent where S3 requires them (deletes).
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // A service that stops answering fails the request (and /healthz) rather than hold it and its connection.
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
      }),
    })))
  const Bucket = settings.bucket
  const objectKey = (area: Area, key: string) => `${settings.prefix}${area}/${key}`
  const missing = (error: unknown): null => {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode
    if (status === 404) return null
    throw error
  }
  return {
    async put(area, key, localFile, contentType) {
      const { s3, sdk } = await connect()
      const { size } = await stat(localFile)
      await s3.send(
        new sdk.PutObjectCommand({ Bucket, Key: objectKey(area, key), Body: createReadStream(localFile), ContentLength: size, ContentType: contentType }),
      )
      await rm(localFile, { force: true })
    },
    async read(area, key) {
      const { s3, sdk } = await connect()
      const object = await s3.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(area, key) })).catch(missing)
      return object?.Body ? Buffer.from(await object.Body.transformToByteArray()) : null
    },
    async stat(area, key) {
      const { s3, sdk } = await connect()
      const head = await s3.send(new sdk.HeadObjectCommand({ Bucket, Key: objectKey(area, key) })).catch(missing)
      if (!head) return null
      return {
        size: head.ContentLength ?? 0,
        etag: head.ETag ?? `"${(head.ContentLength ?? 0).toString(36)}-${(head.LastModified?.getTime() ?? 0).toString(36)}"`,
        lastModified: head.LastModified ?? new Date(0),
        async open() {
          const object = await s3.send(new sdk.GetObjectCommand({ Bucket, Key: objectKey(area, key) }))
          if (!object.Body) throw new Error(`no body for ${objectKey(area, key)}`)
          return object.Body.transformToWebStream()
        },
      }
    },
    async remove(area, keys) {
      if (keys.length === 0) return
      const { s3, sdk } = await connect()
      // At most 1,000 keys a request (S3's limit).
      for (let start = 0; start < keys.length; start += 1000) {
        const Objects = keys.slice(start, start + 1000).map((key) => ({ Key: objectKey(area, key) }))
        const { Errors = [] } = await s3.send(new sdk.DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }))
        if (Errors.length > 0) throw new Error(`the bucket kept ${Errors.length} file(s): ${Errors[0]?.Key} (${Errors[0]?.Code})`)
      }
    },
    async check() {
      const { s3, sdk } = await connect()
      await s3.send(new sdk.HeadBucketCommand({ Bucket }))
    },
  }
}

/** Local scratch: files being received and made, and the Import screen's uploads (lib/admin/import.ts). */
export function incomingPath(name = ''): string {
  return path.join(getConfig().uploadsDir, 'incoming', name)
}

export type StorageKind = Config['mediaStorage']

/** Where a store (or one area of it) is, for messages: a folder, or an s3:// address. */
export function storeLocation(kind: StorageKind = getConfig().mediaStorage, area?: Area): string {
  const { s3, uploadsDir } = getConfig()
  if (kind === 's3' && s3) return `s3://${s3.bucket}/${s3.prefix}${area ? `${area}/` : ''}`
  return area ? path.join(uploadsDir, area) : uploadsDir
}

const stores = new Map<StorageKind, MediaStore>()

/** A store by its kind, one per process; `s3` needs S3_BUCKET. */
export function storeOf(kind: StorageKind): MediaStore {
  let store = stores.get(kind)
  if (!store) {
    const { s3, uploadsDir } = getConfig()
    if (kind === 's3' && !s3) throw new Error('S3_BUCKET is not set: there is no bucket to use')
    store = kind === 's3' ? s3Store(s3!) : diskStore(uploadsDir)
    stores.set(kind, store)
  }
  return store
}

/** The store MEDIA_STORAGE names. */
export function mediaStore(): MediaStore {
  return storeOf(getConfig().mediaStorage)
}
