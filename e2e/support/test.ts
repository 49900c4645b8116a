import { test as base } from '@playwright/test'

/** What each `api*` project of playwright.config.ts tells its tests besides baseURL. */
export type E2EOptions = {
  /** the DATABASE_URL of the project's server: for the CLI (`places import`) and for reading what ids it gave */
  databaseUrl: string
}

export const test = base.extend<object, E2EOptions>({
  databaseUrl: ['', { option: true, scope: 'worker' }],
})

export { expect } from '@playwright/test'
