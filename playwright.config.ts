import { defineConfig, type Project } from '@playwright/test'
import type { E2EOptions } from './e2e/support/test'
import { s3rverSettings } from './test/support/s3rver-settings'

// HTTP tests against a built server (`next build` first; scripts/test.mts does it). Each `api*` project gets its own
// server and database, reset and loaded by scripts/e2e-server.mts through the real command line:
//   api           SQLite, always
//   api-postgres  PostgreSQL at TEST_DATABASE_URL, only when that is set (a local database: it is emptied); the
//                 server's connections go through PgBouncer in transaction mode (E2E_PGBOUNCER), the tests' directly
// Ports can be moved with E2E_SQLITE_PORT / E2E_POSTGRES_PORT when another run holds them.

//   ui            real Chromium against a SQLite server with the demo places and a user of every role
//   ui-own-basemap  the same, with MAP_TILE_URL=none, a small region's MAP_PMTILES and an embed allow-list
//                   (e2e/ui-own-basemap); where the site's settings are changed too, which every page of the ui
//                   server would show
//   instances     with TEST_DATABASE_URL: two app instances on one PostgreSQL database (its name + `_instances`) and
//                 one bucket, each from a working directory of its own; the ui project's data; Chromium writes
//                 through the first, the tests read through both
const sqlitePort = Number(process.env.E2E_SQLITE_PORT ?? 3101)
const postgresPort = Number(process.env.E2E_POSTGRES_PORT ?? 3102)
const uiPort = Number(process.env.E2E_UI_PORT ?? 3103)
const ownBasemapPort = Number(process.env.E2E_OWN_BASEMAP_PORT ?? uiPort + 1000)
const instancePorts = [Number(process.env.E2E_INSTANCE_PORT ?? 3104), Number(process.env.E2E_INSTANCE_PORT ?? 3104) + 1]

type Server = {
  name: string
  port: number
  databaseUrl: string
  dataset: 'api' | 'ui' | 'shared'
  /** several instances share one: sessions made by one are good on the other, as behind a load balancer */
  authSecret?: string
  /** more of its environment */
  env?: Record<string, string>
}

const INSTANCES_AUTH_SECRET = 'e2e-instances-auth-secret-0123456789abcdef'

// The instances' photos are in a bucket of s3rver (an S3-compatible server in Node, started first), each instance
// on a machine of its own (scripts/e2e-server.mts, E2E_MACHINE): they share the database and the bucket, no disk.
const bucketPort = instancePorts[0]! + 2
const INSTANCES_BUCKET = s3rverSettings(bucketPort)
const INSTANCE_MACHINE = { ...INSTANCES_BUCKET, E2E_MACHINE: '1' }

function instancesDatabase(url: string): string {
  const parsed = new URL(url)
  parsed.pathname = `${parsed.pathname}_instances`
  return parsed.href
}

const servers: Server[] = [
  { name: 'api', port: sqlitePort, databaseUrl: `file:./.test-data/e2e-${sqlitePort}.db`, dataset: 'api' },
  // A server on PostgreSQL refuses to start without AUTH_SECRET.
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'api-postgres',
          port: postgresPort,
          databaseUrl: process.env.TEST_DATABASE_URL,
          dataset: 'api' as const,
          authSecret: 'e2e-api-postgres-auth-secret-0123456789ab',
          env: { E2E_PGBOUNCER: '1' },
        },
      ]
    : []),
  { name: 'ui', port: uiPort, databaseUrl: `file:./.test-data/e2e-${uiPort}.db`, dataset: 'ui' },
  // No tiles: the map's own world layer alone, and no request to anyone but the site (README, Share and embed).
  {
    name: 'ui-own-basemap',
    port: ownBasemapPort,
    databaseUrl: `file:./.test-data/e2e-${ownBasemapPort}.db`,
    dataset: 'ui',
    env: {
      MAP_TILE_URL: 'none',
      EMBED_ALLOWED_ORIGINS: 'https://framing.example, https://other.example',
      // A vector basemap of a small region (test/support/pmtiles.ts) far from the places of the tests' views.
      MAP_PMTILES: `.test-data/basemap-${ownBasemapPort}.pmtiles`,
    },
  },
  // The second is started once the first is ready (e2eServers): it finds the data loaded.
  ...(process.env.TEST_DATABASE_URL
    ? [
        {
          name: 'instances',
          port: instancePorts[0]!,
          databaseUrl: instancesDatabase(process.env.TEST_DATABASE_URL),
          dataset: 'ui' as const,
          authSecret: INSTANCES_AUTH_SECRET,
          env: INSTANCE_MACHINE,
        },
        // The same database, secret and bucket as the first instance; nothing else.
        {
          name: 'second-instance',
          port: instancePorts[1]!,
          databaseUrl: instancesDatabase(process.env.TEST_DATABASE_URL),
          dataset: 'shared' as const,
          authSecret: INSTANCES_AUTH_SECRET,
          env: INSTANCE_MACHINE,
        },
      ]
    : []),
]

const baseUrlOf = (server: Server) => `http://127.0.0.1:${server.port}`
const uploadsDirOf = (server: Server) => `.test-data/uploads-${server.port}`

/**
 * Debian's Chromium (Playwright's own browser download does not work on these machines); CHROMIUM_PATH overrides it.
 * The browser projects use it, and so does the map's benchmark (bench/map-browser.mts).
 */
export const chromium = {
  browserName: 'chromium',
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  },
} satisfies Project['use']

const projects: Project<E2EOptions>[] = servers
  .filter((server) => server.dataset !== 'shared')
  .map((server) => ({
    name: server.name,
    testDir:
      server.name === 'instances'
        ? './e2e/instances'
        : server.name === 'ui-own-basemap'
          ? './e2e/ui-own-basemap'
          : server.dataset === 'ui'
            ? './e2e/ui'
            : './e2e/api',
    testMatch: '**/*.spec.ts',
    use: {
      baseURL: baseUrlOf(server),
      databaseUrl: server.databaseUrl,
      uploadsDir: uploadsDirOf(server),
      ...(server.name === 'instances' ? { secondInstanceURL: `http://127.0.0.1:${instancePorts[1]}`, bucket: INSTANCES_BUCKET } : {}),
      // No trace: recording one took a quarter of the browser tests' time (BENCHMARKS.md). `--trace on` records them.
      ...(server.dataset === 'ui' ? { ...chromium, screenshot: 'on' } : {}),
    },
  }))

const bucketFolder = `.test-data/s3-${bucketPort}`
const bucketServer = {
  name: 'bucket',
  command: `rm -rf ${bucketFolder} && node node_modules/s3rver/bin/s3rver.js -d ${bucketFolder} -a 127.0.0.1 -p ${bucketPort} -s --configure-bucket places`,
  env: {},
  port: bucketPort,
}

// Every server, started side by side by scripts/e2e-servers.mts (Playwright would start them one after the other):
// each instance after the one before it, the first after the bucket.
const e2eServers = [
  ...(process.env.TEST_DATABASE_URL ? [bucketServer] : []),
  ...servers.map((server, i) => ({
    name: server.name,
    command: 'node --import tsx scripts/e2e-server.mts',
    // Ready as a load balancer sees it (503 "starting" until the home map's index is built).
    url: `${baseUrlOf(server)}/healthz`,
    after: server.name === 'instances' ? 'bucket' : server.dataset === 'shared' ? servers[i - 1]!.name : undefined,
    env: {
      DATABASE_URL: server.databaseUrl,
      PORT: String(server.port),
      SITE_URL: baseUrlOf(server),
      UPLOADS_DIR: uploadsDirOf(server),
      E2E_DATASET: server.dataset,
      ...(server.authSecret ? { AUTH_SECRET: server.authSecret } : {}),
      ...server.env,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  })),
]

export default defineConfig<E2EOptions>({
  testDir: './e2e',
  outputDir: 'test-results/artifacts',
  fullyParallel: false,
  // Two cores: one for the tests, one for the server(s).
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  projects,
  webServer: {
    command: 'node --import tsx scripts/e2e-servers.mts',
    env: { E2E_SERVERS: JSON.stringify(e2eServers) },
    wait: { stdout: /every server is ready/ },
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
