import { test as base } from '@playwright/test'

/** What each `api*` project of playwright.config.ts tells its tests besides baseURL. */
export type E2EOptions = {
  /** the DATABASE_URL of the project's server: for the CLI (`places import`) and for reading what ids it gave */
  databaseUrl: string
  /** the UPLOADS_DIR of the project's server: for `places media import` and for looking at stored files */
  uploadsDir: string
  /** the `instances` project: the base URL of the second app instance on the same database */
  secondInstanceURL: string
  /** the `instances` project: the settings of the bucket both instances keep their photos in (README, Configuration) */
  bucket: Record<string, string>
}

export const test = base.extend<object, E2EOptions>({
  databaseUrl: ['', { option: true, scope: 'worker' }],
  uploadsDir: ['', { option: true, scope: 'worker' }],
  secondInstanceURL: ['', { option: true, scope: 'worker' }],
  bucket: [{}, { option: true, scope: 'worker' }],
})

export { expect } from '@playwright/test'
