import { defineConfig, type PlaywrightTestConfig, type Project } from '@playwright/test'
import type { E2EOptions } from './e2e/support/test'

// HTTP tests against a built server (`next build` first; scripts/test.mjs does it). Each `api*` project gets its own
// server and database, reset and loaded by scripts/e2e-server.mjs through the real command line:
//   api           SQLite, always
//   api-postgres  PostgreSQL at TEST_DATABASE_URL, only when that is set (a local database: it is emptied)
// Ports can be moved with E2E_SQLITE_PORT / E2E_POSTGRES_PORT when another run holds them.

//   ui            real Chromium against a SQLite server with the demo places and a user of every role
const sqlitePort = Number(process.env.E2E_SQLITE_PORT ?? 3101)
const postgresPort = Number(process.env.E2E_POSTGRES_PORT ?? 3102)
const uiPort = Number(process.env.E2E_UI_PORT ?? 3103)

type Server = { name: string; port: number; databaseUrl: string; dataset: 'api' | 'ui' }

const servers: Server[] = [
  { name: 'api', port: sqlitePort, databaseUrl: `file:./.test-data/e2e-${sqlitePort}.db`, dataset: 'api' },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'api-postgres', port: postgresPort, databaseUrl: process.env.TEST_DATABASE_URL, dataset: 'api' as const }]
    : []),
  { name: 'ui', port: uiPort, databaseUrl: `file:./.test-data/e2e-${uiPort}.db`, dataset: 'ui' },
]

const baseUrlOf = (server: Server) => `http://127.0.0.1:${server.port}`
const uploadsDirOf = (server: Server) => `.test-data/uploads-${server.port}`

/**
 * Debian's Chromium, for the `ui` project to come (Playwright's own browser download does not work on these
 * machines); CHROMIUM_PATH overrides it. Use as `use: { ...chromium, baseURL }` in that project.
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

const projects: Project<E2EOptions>[] = servers.map((server) => ({
  name: server.name,
  testDir: server.dataset === 'ui' ? './e2e/ui' : './e2e/api',
  testMatch: '**/*.spec.ts',
  use: {
    baseURL: baseUrlOf(server),
    databaseUrl: server.databaseUrl,
    uploadsDir: uploadsDirOf(server),
    ...(server.dataset === 'ui' ? { ...chromium, screenshot: 'on', trace: 'retain-on-failure' } : {}),
  },
}))

const webServer: NonNullable<PlaywrightTestConfig['webServer']> = servers.map((server) => ({
  command: 'node scripts/e2e-server.mjs',
  url: `${baseUrlOf(server)}/places/v1/geojson?posts_per_page=1`,
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'ignore',
  stderr: 'pipe',
  env: {
    DATABASE_URL: server.databaseUrl,
    PORT: String(server.port),
    SITE_URL: baseUrlOf(server),
    UPLOADS_DIR: uploadsDirOf(server),
    E2E_DATASET: server.dataset,
    NEXT_TELEMETRY_DISABLED: '1',
  },
}))

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
  webServer,
})
