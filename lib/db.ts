import 'server-only'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import { getConfig } from './config'
import { PrismaClient as PostgresClient } from './generated/postgresql/client'
import { PrismaClient } from './generated/sqlite/client'

export type Dialect = 'sqlite' | 'postgresql'

/**
 * The one Prisma client. Both generated clients come from the same schema, so they have the same models and
 * methods; the SQLite client's type stands for both.
 */
export type Db = PrismaClient

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgresql' : 'sqlite'
}

/** `file:./data/places.db` → the absolute path of the database file, its folder created. */
export function sqliteFile(url: string): string {
  const file = path.resolve(url.replace(/^file:/, '').replace(/\?.*$/, ''))
  mkdirSync(path.dirname(file), { recursive: true })
  return file
}

export function createDb(url: string): Db {
  if (dialectOf(url) === 'postgresql') {
    return new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db
  }
  // better-sqlite3 waits up to `timeout` ms for a lock (SQLite's busy timeout) instead of failing with SQLITE_BUSY.
  return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: 15_000 }) })
}

const cache = globalThis as unknown as { placesDb?: { url: string; db: Db } }

export function getDb(): Db {
  const url = getConfig().databaseUrl
  if (cache.placesDb?.url !== url) cache.placesDb = { url, db: createDb(url) }
  return cache.placesDb.db
}

export function getDialect(): Dialect {
  return dialectOf(getConfig().databaseUrl)
}

/** Closes the client's connections (PostgreSQL pools would otherwise keep a finished command alive). */
export async function disconnectDb(): Promise<void> {
  const current = cache.placesDb
  cache.placesDb = undefined
  await current?.db.$disconnect()
}
