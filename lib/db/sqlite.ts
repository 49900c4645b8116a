import { closeSync, mkdirSync, openSync } from 'node:fs'
import path from 'node:path'
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3'
import Database from 'better-sqlite3'
import { Prisma, PrismaClient } from '../generated/sqlite/client'
import { REWRITE_BATCH, titleOrAddressLike, type Connection, type Db, type DialectDriver, type PendingMigrations, type Rewrite, type Tx } from './dialect'

/**
 * `file:./data/places.db` → the absolute path of the database file. A missing folder and file are made readable by
 * this user only (0700, 0600; SQLite gives its -wal and -shm files the database's mode): they hold every draft.
 */
export function sqliteFile(url: string): string {
  const file = path.resolve(url.replace(/^file:/, '').replace(/\?.*$/, ''))
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (error) {
    // One that exists is opened as it is, read-only where it must be.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
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

function client(url: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: busyTimeout() }) })
}

/**
 * The connection a transaction runs on, by its client: a bulk write's statements go to it directly (bulkInsert).
 * Kept on globalThis, as lib/db/index.ts keeps the connection: the server's bundle may hold two copies of this module
 * (a page's and a server action's), and one copy's bulkInsert must find what the other's transaction() recorded.
 */
const shared = globalThis as unknown as { placesSqliteTransactions?: WeakMap<Tx, Database.Database | undefined> }
const connectionOfTransaction = (shared.placesSqliteTransactions ??= new WeakMap())

/**
 * A client for transactions, and the better-sqlite3 connection its adapter opens (the adapter keeps it as `client`,
 * undocumented: should an upgrade change that, bulkInsert fails loudly, in every test of an import, and nothing else).
 */
function transactionClient(url: string): { client: PrismaClient; connection: () => Database.Database | undefined } {
  const factory = new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: busyTimeout() })
  let connection: Database.Database | undefined
  const open = factory.connect.bind(factory)
  factory.connect = async () => {
    const adapter = await open()
    const driver = (adapter as unknown as { client?: unknown }).client
    connection = driver instanceof Database ? driver : undefined
    return adapter
  }
  return { client: new PrismaClient({ adapter: factory }), connection: () => connection }
}

const VERSION_SQL = 'SELECT "data_version" FROM "site_state" WHERE "id" = 1'

function connect(url: string): Connection {
  let reader: Database.Statement<[], number> | undefined
  const readVersion = () => {
    reader ??= readOnlyConnection(url).prepare<[], number>(VERSION_SQL).pluck()
    return Promise.resolve(reader.get())
  }
  const closeReader = () => reader?.database.close()
  // One machine's: a turn is not waited for (StreamOptions).
  const stream = (query: Prisma.Sql, size: number) => streamRows(url, query, size)
  const readIds = (query: Prisma.Sql) => Promise.resolve(readIdsOf(url, query))
  const { client: transactions, connection } = transactionClient(url)
  const transaction = <T>(write: (tx: Tx) => Promise<T>, options: { maxWait: number; timeout?: number }) =>
    transactions.$transaction((tx) => {
      connectionOfTransaction.set(tx, connection())
      return write(tx)
    }, options)
  if (!isServer()) {
    return { db: transactions, transaction, readVersion, stream, readIds, close: async () => (closeReader(), await transactions.$disconnect()) }
  }
  const db = client(url).$extends({
    query: { $allOperations: ({ args, query }) => retryWhileBusy(() => query(args)) },
  }) as unknown as Db // a query extension adds no methods: the client's type is unchanged
  return {
    db,
    transaction: (write, options) => retryWhileBusy(() => transaction(write, options)),
    readVersion: () => retryWhileBusy(readVersion),
    stream,
    readIds,
    close: async () => {
      closeReader()
      await Promise.all([db.$disconnect(), transactions.$disconnect()])
    },
  }
}

// eslint-disable-next-line @typescript-eslint/require-await -- async as the interface is (PostgreSQL's reads are); SQLite's read synchronously
async function* streamRows(url: string, query: Prisma.Sql, size: number): AsyncGenerator<unknown[][]> {
  // A statement reads from one snapshot until it is finished; a connection of its own leaves the others free meanwhile.
  const db = readOnlyConnection(url)
  try {
    let chunk: unknown[][] = []
    for (const row of db
      .prepare<unknown[], unknown[]>(query.sql)
      .raw(true)
      .iterate(...query.values)) {
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

/** The first column of every row, read at once: a row at a time (streamRows) was three times slower for a search's ids. */
function readIdsOf(url: string, query: Prisma.Sql): Int32Array {
  const db = readOnlyConnection(url)
  try {
    return Int32Array.from(
      db
        .prepare<unknown[], number>(query.sql)
        .pluck()
        .all(...query.values),
    )
  } finally {
    db.close()
  }
}

/**
 * A value as Prisma stores it in SQLite: a date as text (`2026-11-24T20:08:23.455+00:00`), so that text comparisons
 * agree, a boolean as 1 or 0; else the value.
 */
function asStored(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace(/Z$/, '+00:00')
  return typeof value === 'boolean' ? Number(value) : value
}

const LEDGER = '_places_migrations'
/** Runs of post ids indexed for search a statement after a bulk write (bulkInsert). */
const SEARCH_INDEX_CHUNK = 50_000
/** The most posts a bulk write names in the change log, as PostgreSQL's statement triggers (migration 0010). */
const CHANGES_LOGGED = 500
/** What FTS5 gathers before it writes a segment: its default, and a bulk write's (bulkInsert's finish). */
const FTS5_DEFAULT_HASH_BYTES = 1 << 20
const SEARCH_INDEX_HASH_BYTES = 16 << 20
/** A bulk write of fewer rows keeps the indexes: rebuilding them costs more than the inserts would. */
const REBUILD_INDEXES_FROM = 10_000

const MIGRATE_TIMEOUT_MS = 15_000

/**
 * WAL lets readers go on while one writer writes; the mode is kept in the file. Setting it takes a lock that SQLite
 * does not wait for (no busy handler): while another process migrating at the same moment holds one, it is tried
 * again, 50 ms apart, until the migration's timeout.
 */
function setWalMode(db: Database.Database): void {
  const deadline = Date.now() + MIGRATE_TIMEOUT_MS
  for (;;) {
    try {
      db.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if (!(error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY') || Date.now() > deadline) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50)
    }
  }
}

function rewrite(db: Database.Database, { table, column, convert }: Rewrite): void {
  const read = db.prepare(`SELECT "id", "${column}" AS "value" FROM "${table}" WHERE "id" > ? AND "${column}" <> '' ORDER BY "id" LIMIT ?`)
  const write = db.prepare(`UPDATE "${table}" SET "${column}" = ? WHERE "id" = ?`)
  for (let after = 0; ;) {
    const rows = read.all(after, REWRITE_BATCH) as { id: number; value: string }[]
    if (rows.length === 0) return
    for (const row of rows) write.run(convert(row.value), row.id)
    after = rows.at(-1)!.id
  }
}

function migrate(url: string, pending: PendingMigrations): string[] {
  const db = new Database(sqliteFile(url), { timeout: MIGRATE_TIMEOUT_MS })
  try {
    setWalMode(db)
    db.exec(`CREATE TABLE IF NOT EXISTS "${LEDGER}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TEXT NOT NULL)`)
    const record = db.prepare(`INSERT INTO "${LEDGER}" ("name", "checksum", "applied_at") VALUES (?, ?, ?)`)
    // All or nothing, under the write lock from the ledger's read to the last file (one IMMEDIATE transaction):
    // another process waits, then finds nothing pending.
    return db
      .transaction(() => {
        const rows = db.prepare(`SELECT "name", "checksum" FROM "${LEDGER}"`).all() as { name: string; checksum: string }[]
        const todo = pending(new Map(rows.map((r) => [r.name, r.checksum])))
        for (const m of todo) {
          db.exec(m.sql)
          if (m.rewrite) rewrite(db, m.rewrite)
          record.run(m.name, m.checksum, new Date().toISOString())
        }
        return todo.map((m) => m.name)
      })
      .immediate()
  } finally {
    db.close()
  }
}

/** SQLite has one lock for the whole file, which any write takes: this one changes nothing (there is no row 0). */
async function takeWriteLock(tx: Tx): Promise<void> {
  await tx.$executeRaw`UPDATE "site_state" SET "data_version" = "data_version" WHERE "id" = 0`
}

export const sqlite: DialectDriver = {
  name: 'sqlite',
  connect,
  lockTables: takeWriteLock,
  lockAdministrators: async (tx) => {
    await tx.$executeRaw`UPDATE "users" SET "role" = "role" WHERE "role" = 'administrator'`
  },
  lockPosts: takeWriteLock,
  // One process writes at a time already: the job waits for the write lock, as other writers do.
  tryLockJob: async (tx) => {
    await takeWriteLock(tx)
    return true
  },
  // The database is a file on this machine: its clock is this one.
  now: () => Promise.resolve(new Date()),
  // SQLite's next id is past the largest already: nothing to move.
  resetPostIdSequence: () => Promise.resolve(),
  resetAttachmentIdSequence: () => Promise.resolve(),
  // SQLite runs a trigger once a row: a million rows imported, a million updates of the data version (a third of the
  // insert's time) and a million single-row updates of the search index (four times what one INSERT … SELECT of the
  // same rows costs). And an index takes rows in its own order, each insert a walk to a random page: far slower, past
  // the page cache, than building it once from the finished table (CREATE INDEX sorts). So the triggers, and for an
  // import at least the size of the table its indexes, are dropped inside the transaction and made again from their
  // own SQL before it commits (a rollback, or a killed process, brings them back too); readers see none of it, the
  // version moves once, and the posts are indexed for search in one go. The rows go to the transaction's connection
  // as prepared statements, a row a call: no SQL text, no Prisma, nothing kept per statement (BENCHMARKS.md).
  bulkInsert: (tx, tables, rows) => {
    const database = connectionOfTransaction.get(tx)
    if (!database)
      throw new Error("bulkInsert: no connection: not in a transaction of transaction(), or @prisma/adapter-better-sqlite3 no longer keeps it as 'client'")
    // Prisma ends a transaction that outlives its timeout, and nothing of this write would tell: every call checks
    // that the transaction is still open, and then writes synchronously (no other code runs until it is done).
    const stillOpen = () => {
      if (!database.inTransaction) throw new Error('bulkInsert: the transaction has ended (its timeout?)')
    }
    stillOpen()
    const schema = (type: 'trigger' | 'index', which: string) =>
      database
        .prepare(`SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = ? AND "tbl_name" IN (${tables.map(() => '?').join(', ')}) AND ${which}`)
        .all(type, ...tables) as { name: string; sql: string }[]
    const triggers = schema('trigger', `("name" GLOB '*_bump_insert' OR "name" = 'posts_search_insert')`)
    const rowsThere = database.prepare(`SELECT count(*) FROM "${tables[0]}"`).pluck().safeIntegers(false).get() as number
    // Those without SQL are the primary keys' and UNIQUE constraints', part of their tables. Meanwhile nothing refuses
    // a second post of a slug: the import's slugs are free ones, under the write lock (lib/places/batch.ts), and the
    // unique index made again at the end would refuse the commit of any duplicate.
    const indexes = rows >= Math.max(REBUILD_INDEXES_FROM, rowsThere) ? schema('index', '"sql" IS NOT NULL') : []
    for (const { name } of triggers) database.exec(`DROP TRIGGER "${name}"`)
    for (const { name } of indexes) database.exec(`DROP INDEX "${name}"`)
    const inserts = new Map<string, Database.Statement>()
    // The posts written, to index for search at the end, as runs of consecutive ids [first, last]: an import's ids
    // follow one another, and a million of them are one run, not a million numbers kept.
    const postRuns: [number, number][] = []
    // The posts the write touched, for the change log, while they are as few as one statement's triggers log.
    let touched: Set<number> | null = new Set()
    return Promise.resolve({
      insert: (table, columns, values) => {
        const key = `${table}(${columns.join()})`
        stillOpen()
        let insert = inserts.get(key)
        if (!insert) {
          insert = database.prepare(
            `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          )
          inserts.set(key, insert)
        }
        const idAt = table === 'posts' ? columns.indexOf('id') : -1
        if (table === 'posts' && idAt < 0) throw new Error('bulkInsert: posts are written with their ids (finish indexes them for search by id)')
        const postAt = table === 'posts' ? idAt : columns.indexOf('post_id')
        for (const row of values) {
          insert.run(row.map(asStored))
          if (touched && postAt >= 0 && touched.add(row[postAt] as number).size > CHANGES_LOGGED) touched = null
          if (idAt < 0) continue
          const id = row[idAt] as number
          const run = postRuns.at(-1)
          if (run && id === run[1] + 1) run[1] = id
          else postRuns.push([id, id])
        }
        return Promise.resolve()
      },
      finish: () => {
        stillOpen()
        for (const { sql } of indexes) database.exec(sql)
        if (triggers.some(({ name }) => name === 'posts_search_insert')) {
          // FTS5 writes what it has gathered as a new segment of its index, to be merged with the others, each time it
          // holds `hashsize` bytes: 16 MB rather than its default 1 MB makes fewer segments and merges, and fills the
          // index of 1,000,000 posts in about a third less time (BENCHMARKS.md). The setting is kept in the table's own
          // config (and rolled back with the transaction); set back to what it was after. FTS5's source reads it, its
          // documentation does not list it: a SQLite without it would refuse the statement, and every import fail.
          const hashSize = (bytes: number) => database.exec(`INSERT INTO "posts_search" ("posts_search", "rank") VALUES ('hashsize', ${bytes})`)
          const hashSizeBefore = database.prepare(`SELECT "v" FROM "posts_search_config" WHERE "k" = 'hashsize'`).pluck().get() as number | undefined
          hashSize(SEARCH_INDEX_HASH_BYTES)
          // CROSS JOIN: the runs first, each a range of the posts' rowids, never a scan of the table.
          const index = database.prepare(`INSERT INTO "posts_search" ("rowid", "title", "public_address")
            SELECT p."id", p."title", p."public_address" FROM json_each(?) r CROSS JOIN "posts" p
            WHERE p."id" BETWEEN r."value" ->> 0 AND r."value" ->> 1`)
          for (let start = 0; start < postRuns.length; start += SEARCH_INDEX_CHUNK) index.run(JSON.stringify(postRuns.slice(start, start + SEARCH_INDEX_CHUNK)))
          hashSize(hashSizeBefore ?? FTS5_DEFAULT_HASH_BYTES)
        }
        for (const { sql } of triggers) database.exec(sql)
        // The version moves once. The change log names the posts written, as an edit's would, so that the map's
        // indexes take them in; more than one statement's triggers name, and it says anything changed (post 0):
        // the indexes are read again whole (migration 0010).
        database.exec('UPDATE "site_state" SET "data_version" = "data_version" + 1 WHERE "id" = 1')
        database
          .prepare('INSERT INTO "place_changes" SELECT s."data_version", j."value" FROM "site_state" s, json_each(?) j WHERE s."id" = 1')
          .run(JSON.stringify(touched ? [...touched] : [0]))
        return Promise.resolve()
      },
    })
  },
  // SQLite's LIKE, which `contains` is, ignores ASCII case already.
  containsIgnoringCase: (text) => ({ contains: text }),
  // The trigram table matches a phrase as a substring, ignoring case (Unicode's, where LIKE folds only ASCII), and
  // gives every post's id (the caller keeps the public places); it cannot look up fewer than three characters.
  idsContaining: (text) =>
    [...text].length >= 3
      ? Prisma.sql`SELECT "rowid" AS "id" FROM "posts_search" WHERE "posts_search" MATCH ${`"${text.replaceAll('"', '""')}"`}`
      : Prisma.sql`SELECT p."id" FROM "posts" p WHERE ${titleOrAddressLike(text)}`,
  // Dates are kept as ISO 8601 text ('2024-05-01T10:00:00.000+00:00'), which unixepoch reads, milliseconds included.
  epochMillis: (column) => Prisma.sql`CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`,
  leftJoinPostById: (id, filter) => Prisma.sql`LEFT JOIN "posts" p ON p."id" = ${id} AND ${filter}`,
  migrate: (url, pending) => Promise.resolve(migrate(url, pending)),
}
