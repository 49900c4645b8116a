// The settings that point Places at a bucket of s3rver on this machine (README, Configuration), for the tests, the
// e2e servers (playwright.config.ts) and the upload bench. Nothing imported: the Playwright config loads it in every
// worker.
export function s3rverSettings(port: number, bucket = 'places'): Record<string, string> {
  return {
    MEDIA_STORAGE: 's3',
    S3_BUCKET: bucket,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    // s3rver's own key pair.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  }
}
