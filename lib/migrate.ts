import 'server-only'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { getConfig } from './config'
import { dialectOf, driverOf, type Dialect } from './db'
import type { Migration, Rewrite } from './db/dialect'
import { htmlFromText } from './content/text-html'

// Prisma's migrate engine is a native binary that cannot be fetched on offline machines, so the schema lives in
// plain SQL files, one folder per dialect, applied in name order and recorded. Deciding what is pending and applying
// it is one locked step on both databases (each dialect's `migrate`, lib/db/), so that processes starting at once
// (app instances, a command line beside a server) apply each file once.

/** The data each migration changes in code, after its SQL: by file name, the same in both folders. */
const REWRITES: Record<string, Rewrite> = {
  // Content was plain text; it is HTML from here on (lib/content/html.ts), showing the same.
  '0012_content_html.sql': { table: 'posts', column: 'content', convert: htmlFromText },
}

export function readMigrations(dialect: Dialect): Migration[] {
  const folder = path.join(process.cwd(), 'prisma', 'migrations', dialect)
  return readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(folder, name), 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex'), rewrite: REWRITES[name] }
    })
}

function pending(migrations: Migration[], applied: Map<string, string>): Migration[] {
  for (const [name, checksum] of applied) {
    const file = migrations.find((m) => m.name === name)
    if (file && file.checksum !== checksum) {
      throw new Error(`Migration ${name} was changed after it was applied; add a new migration instead`)
    }
  }
  return migrations.filter((m) => !applied.has(m.name))
}

/**
 * Brings the database at `url` to the current schema; returns the names of the migrations it applied. By default the
 * app's database, through MIGRATION_DATABASE_URL where that is set: a pooler in transaction mode (PgBouncer) cannot
 * hold the session's advisory lock the migrations take.
 */
export async function migrate(url: string = getConfig().migrationDatabaseUrl ?? getConfig().databaseUrl): Promise<string[]> {
  const migrations = readMigrations(dialectOf(url))
  return driverOf(url).migrate(url, (applied) => pending(migrations, applied))
}
