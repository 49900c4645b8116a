import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { s3rverSettings } from './s3rver-settings'

// An S3-compatible server for the tests: s3rver, which keeps a bucket's objects in a folder and speaks S3's REST API
// (signed requests, path-style addresses), so the app's AWS SDK talks to it as to any S3 service. Its folder goes
// with it.

export type TestS3 = {
  /** the settings that point Places at the bucket (README, Configuration) */
  env: Record<string, string>
  /** every key in the bucket under `prefix`, sorted */
  keys: (prefix?: string) => Promise<string[]>
  read: (key: string) => Promise<Buffer>
  /** stops the server and removes its folder; again, does nothing */
  stop: () => Promise<void>
}

export type Bucket = Pick<TestS3, 'keys' | 'read'> & { destroy: () => void }

/** The bucket these settings name (TestS3's env, or the e2e instances'), through the AWS SDK as the app sees it. */
export function bucketOf(env: Record<string, string>): Bucket {
  const bucket = env.S3_BUCKET!
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY! },
  })
  return {
    async keys(prefix = '') {
      const keys: string[] = []
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }))
        keys.push(...(page.Contents ?? []).map((object) => object.Key!))
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return keys.sort()
    },
    async read(key) {
      const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
      return Buffer.from(await object.Body!.transformToByteArray())
    },
    destroy: () => client.destroy(),
  }
}

export async function startS3(bucket = 'places'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'places-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  const { port } = await server.run()
  const env = s3rverSettings(port, bucket)
  const bucketClient = bucketOf(env)
  let stopped = false
  return {
    env,
    keys: bucketClient.keys,
    read: bucketClient.read,
    async stop() {
      if (stopped) return
      stopped = true
      bucketClient.destroy()
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
