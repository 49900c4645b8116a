import 'server-only'
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaPg } from '@prisma/adapter-pg'
import Database from 'better-sqlite3'
import pg from 'pg'
import { getConfig } from './config'
import { PrismaClient as PostgresClient } from './generated/postgresql/client'
import { type Prisma, PrismaClient } from './generated/sqlite/client'

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
// waits at most a moment synchronously and then retries asynchronously, up to BUSY_RETRY_MS; a command line, which
// serves nobody else, simply waits.
//
// A transaction cannot retry a statement: once it has read, another writer's commit makes its snapshot stale, and
// SQLite refuses it the write lock for good (SQLITE_BUSY_SNAPSHOT). So the server retries the whole transaction.
// It also runs transactions on a connection of their own: Prisma's SQLite adapter sends every query down its one
// connection, and a request's query there would run inside another request's open transaction, seeing what that
// transaction has not committed (and may yet roll back).
const BUSY_RETRY_MS = 30_000
const isServer = (): boolean => process.env.NEXT_RUNTIME !== undefined
/** How long a SQLite connection waits synchronously for a lock before SQLITE_BUSY. */
const busyTimeout = (): number => (isServer() ? 20 : BUSY_RETRY_MS)

function isBusy(error: unknown): boolean {
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } }
  return code === 'P1008' || meta?.driverAdapterError?.cause?.kind === 'SocketTimeout' || !!code?.startsWith('SQLITE_BUSY')
}

async function retryWhileBusy<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_RETRY_MS
  for (let attempt = 0; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, Math.min(5 * 2 ** attempt, 100)))
    }
  }
}

/** A read-only connection of its own to the SQLite file of `url`. */
function readOnlyConnection(url: string): Database.Database {
  return new Database(sqliteFile(url), { readonly: true, timeout: busyTimeout() })
}

function sqliteClient(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: busyTimeout() }) })
}

type Clients = {
  db: Db
  transactions: Db
  retries: boolean
  /** reads the data version: the driver's own query, see readDataVersion */
  readVersion: () => Promise<number | undefined>
  stream: (query: Prisma.Sql, size: number) => AsyncGenerator<unknown[][]>
  close: () => Promise<void>
}

const VERSION_SQL = 'SELECT "data_version" FROM "site_state" WHERE "id" = 1'

function createClients(url: string): Clients {
  if (dialectOf(url) === 'postgresql') {
    // One pool for Prisma and for the version read; Prisma's $disconnect ends it.
    const pool = new pg.Pool({ connectionString: url })
    const db = new PostgresClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) as unknown as Db
    return {
      db,
      transactions: db,
      retries: false,
      readVersion: async () => (await pool.query<{ data_version: number }>(VERSION_SQL)).rows[0]?.data_version,
      stream: (query, size) => streamPostgres(pool, query, size),
      close: async () => {
        await db.$disconnect()
        if (!pool.ended) await pool.end() // when Prisma never connected
      },
    }
  }
  let reader: Database.Statement<[], number> | undefined
  const readVersion = async () => {
    reader ??= readOnlyConnection(url).prepare<[], number>(VERSION_SQL).pluck()
    return reader.get()
  }
  const closeReader = () => reader?.database.close()
  const stream = (query: Prisma.Sql, size: number) => streamSqlite(url, query, size)
  if (!isServer()) {
    const db = sqliteClient(url)
    return { db, transactions: db, retries: false, readVersion, stream, close: async () => (closeReader(), await db.$disconnect()) }
  }
  const db = sqliteClient(url).$extends({
    query: { $allOperations: ({ args, query }) => retryWhileBusy(() => query(args)) },
  }) as unknown as Db // a query extension adds no methods: the client's type is unchanged
  const transactions = sqliteClient(url)
  return {
    db,
    transactions,
    retries: true,
    readVersion: () => retryWhileBusy(readVersion),
    stream,
    close: async () => {
      closeReader()
      await Promise.all([db.$disconnect(), transactions.$disconnect()])
    },
  }
}

async function* streamSqlite(url: string, query: Prisma.Sql, size: number): AsyncGenerator<unknown[][]> {
  // A statement reads from one snapshot until it is finished; a connection of its own leaves the others free meanwhile.
  const db = readOnlyConnection(url)
  try {
    let chunk: unknown[][] = []
    for (const row of db.prepare<unknown[], unknown[]>(query.sql).raw(true).iterate(...query.values)) {
      chunk.push(row)
      if (chunk.length === size) {
        yield chunk
        chunk = []
      }
    }
    if (chunk.length > 0) yield chunk
  } finally {
    db.close()
  }
}

async function* streamPostgres(pool: pg.Pool, query: Prisma.Sql, size: number): AsyncGenerator<unknown[][]> {
  const client = await pool.connect()
  let done = false
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    await client.query({ text: `DECLARE stream_rows NO SCROLL CURSOR FOR ${query.text}`, values: query.values })
    for (;;) {
      const { rows } = await client.query<unknown[]>({ text: `FETCH ${size} FROM stream_rows`, rowMode: 'array' })
      if (rows.length === 0) break
      yield rows
    }
    await client.query('COMMIT')
    done = true
  } finally {
    // Stopped early (the caller's loop broke or threw): the transaction ends before the connection goes back, or
    // the connection is dropped if it cannot.
    const broken = !done && (await client.query('ROLLBACK').then(() => false, () => true))
    client.release(broken)
  }
}

/** A Prisma client of its own, for tools that need one apart from the app's (the schema test, say). */
export function createDb(url: string): Db {
  return createClients(url).db
}

const cache = globalThis as unknown as { placesDb?: { url: string; clients: Clients } }

function clients(): Clients {
  const url = getConfig().databaseUrl
  if (cache.placesDb?.url !== url) cache.placesDb = { url, clients: createClients(url) }
  return cache.placesDb.clients
}

export function getDb(): Db {
  return clients().db
}

/**
 * The data version: bumped by database triggers on every write the public routes depend on (prisma/migrations),
 * and read on every public request. So it is read with the driver itself, not through Prisma, whose work around a
 * query costs 50–100 times more than this one-row read (BENCHMARKS.md): on SQLite by a read-only connection of its
 * own, on PostgreSQL through the pool Prisma uses.
 */
export async function readDataVersion(): Promise<number> {
  const version = await clients().readVersion()
  if (version === undefined) throw new Error('site_state row is missing: the database was not migrated by Places')
  return version
}

/**
 * The rows of a read-only raw query (Prisma.sql), `size` at a time, each row an array of its columns' values: all from
 * one snapshot of the data, read on a connection of its own. For more rows than should be held at once as objects
 * (the map's index of every place). Values must be numbers or strings (SQLite binds no booleans).
 */
export function streamRows(query: Prisma.Sql, size: number): AsyncGenerator<unknown[][]> {
  return clients().stream(query, size)
}

export type Tx = Prisma.TransactionClient

/**
 * Runs `write` in one transaction: all of it or none of it. The one way to open a transaction: on the server's
 * SQLite it runs apart from other queries and is retried whole while another writer holds the lock, so `write`
 * must do nothing but database work.
 */
export async function transaction<T>(write: (tx: Tx) => Promise<T>, options: { maxWait?: number; timeout?: number } = {}): Promise<T> {
  const { transactions, retries } = clients()
  const run = () => transactions.$transaction(write, { maxWait: 10_000, ...options })
  return retries ? retryWhileBusy(run) : run()
}

export function getDialect(): Dialect {
  return dialectOf(getConfig().databaseUrl)
}

/** Closes the client's connections (PostgreSQL pools would otherwise keep a finished command alive). */
export async function disconnectDb(): Promise<void> {
  const current = cache.placesDb?.clients
  cache.placesDb = undefined
  await current?.close()
}
