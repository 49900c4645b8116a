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

// SQLite lets one writer in at a time; another waits for the lock. better-sqlite3 waits synchronously, which
// would freeze a server's event loop (every request) while, say, a command-line import holds the lock. So the server
// waits at most a moment synchronously and then retries the statement asynchronously, up to BUSY_RETRY_MS; a
// command line, which serves nobody else, simply waits.
const BUSY_RETRY_MS = 30_000
const isServer = process.env.NEXT_RUNTIME !== undefined

function isBusy(error: unknown): boolean {
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } }
  return code === 'P1008' || meta?.driverAdapterError?.cause?.kind === 'SocketTimeout'
}

function retryWhenBusy(client: PrismaClient): Db {
  return client.$extends({
    query: {
      async $allOperations({ args, query }) {
        const deadline = Date.now() + BUSY_RETRY_MS
        for (let attempt = 0; ; attempt++) {
          try {
            return await query(args)
          } catch (error) {
            if (!isBusy(error) || Date.now() > deadline) throw error
            await new Promise((resolve) => setTimeout(resolve, Math.min(5 * 2 ** attempt, 100)))
          }
        }
      },
    },
  }) as unknown as Db // a query extension adds no methods: the client's type is unchanged
}

export function createDb(url: string): Db {
  if (dialectOf(url) === 'postgresql') {
    return new PostgresClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db
  }
  const timeout = isServer ? 20 : BUSY_RETRY_MS
  const client = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqliteFile(url), timeout }) })
  return isServer ? retryWhenBusy(client) : client
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
