import { Prisma, type PrismaClient } from '../generated/sqlite/client'

export type Dialect = 'sqlite' | 'postgresql'

/**
 * The Prisma client as the app uses it, on either database: the SQLite client's types. Both generated clients come
 * from one schema (scripts/prisma-generate.mts), so they have the same models and methods; `$transaction` differs
 * (PostgreSQL offers more isolation levels), so transactions go through `transaction()` (index.ts) instead.
 */
export type Db = Omit<PrismaClient, '$transaction' | '$extends' | '$on'>

/** A client inside a transaction (`transaction()` in index.ts), on either database. */
export type Tx = Omit<Prisma.TransactionClient, '$transaction' | '$on'>

/**
 * What the compiler can check of another client being a Db: every method but `aggregate` and `groupBy`, whose result
 * types are conditional types it cannot compare across two generated clients (postgresql.ts).
 */
export type Comparable<C> = { [M in keyof C]: C[M] extends { findMany: unknown } ? Pick<C[M], Exclude<keyof C[M], 'aggregate' | 'groupBy' | symbol>> : C[M] }

/** The tables an import takes the write lock on. */
export type Table = 'posts' | 'categories' | 'tags' | 'users' | 'attachments' | 'trips'

/** A bulk write in progress (DialectDriver.bulkInsert). */
export type BulkInsert = {
  /** inserts `rows` into `table`, each an array of values in the order of `columns` */
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>
  /** ends the bulk write */
  finish(): Promise<void>
}

/** How a stream of rows is read (index.ts, streamRows). */
export type StreamOptions = {
  /**
   * On PostgreSQL, such reads take turns across every process on the database: each waits for the one before it to
   * end, at most this long (milliseconds), then reads anyway. On SQLite, one machine's, they do not wait.
   */
  turnWaitMs?: number
}

/** What a dialect gives the app for one database URL. */
export type Connection = {
  db: Db
  /** runs `write` in one transaction (the only way to open one) */
  transaction: <T>(write: (tx: Tx) => Promise<T>, options: { maxWait: number; timeout?: number }) => Promise<T>
  /** reads the data version with the driver itself, not through Prisma (index.ts, readDataVersion) */
  readVersion: () => Promise<number | undefined>
  /** the rows of `query`, `size` at a time, from one snapshot (index.ts, streamRows) */
  stream: (query: Prisma.Sql, size: number, options: StreamOptions) => AsyncGenerator<unknown[][]>
  /** the column `id` of every row of `query`, whole numbers below 2^31, in no particular order */
  readIds: (query: Prisma.Sql) => Promise<Int32Array>
  close: () => Promise<void>
}

/**
 * A change of data no SQL can write (plain text made HTML): each non-empty value of one text column through `convert`,
 * after the migration's SQL, in its transaction.
 */
export type Rewrite = { table: string; column: string; convert: (value: string) => string }

export type Migration = { name: string; sql: string; checksum: string; rewrite?: Rewrite }

/** Rows a rewrite reads and writes at a time. */
export const REWRITE_BATCH = 1000

/** Of the migrations, those to apply given the ones the ledger names (name → checksum); throws for a changed one. */
export type PendingMigrations = (applied: Map<string, string>) => Migration[]

/**
 * Everything that differs between SQLite and PostgreSQL, one implementation each (sqlite.ts, postgresql.ts). Code
 * outside lib/db/ asks for what it needs (a lock, a search filter) and never which database it is on.
 */
export interface DialectDriver {
  readonly name: Dialect
  /** A client and its connections: on PostgreSQL a pool of at most `poolMax` (PG_POOL_MAX); SQLite has its file. */
  connect(url: string, options: { poolMax: number }): Connection
  /**
   * Takes the write lock on `tables` until the transaction ends, before the transaction reads what its writes depend
   * on (free ids, slugs): no other writer slips between. SQLite has one lock for the whole file; PostgreSQL locks
   * the tables against other writers, readers go on.
   */
  lockTables(tx: Tx, tables: readonly Table[]): Promise<void>
  /** Locks the administrators' rows until the transaction ends, so that a count of them holds for the write after. */
  lockAdministrators(tx: Tx): Promise<void>
  /**
   * Locks the rows of posts `ids` until the transaction ends, so that who may change them and what they hold stay as
   * read until the write. Without writing them: a lock fires no trigger, so it bumps no data version.
   */
  lockPosts(tx: Tx, ids: readonly number[]): Promise<void>
  /**
   * Takes background job `job` for this transaction if no other process holds it; false if one does. Instances on
   * one PostgreSQL then run a job's round one at a time, and one that finds it taken skips its round.
   */
  tryLockJob(tx: Tx, job: string): Promise<boolean>
  /** The database's clock, which every instance shares (at the transaction's start on PostgreSQL). */
  now(tx: Tx): Promise<Date>
  /** After posts were written with their own ids: the id sequence moves past them (PostgreSQL has one). */
  resetPostIdSequence(tx: Tx): Promise<void>
  /** The same for attachments written with their own ids (a WordPress import keeps them). */
  resetAttachmentIdSequence(tx: Tx): Promise<void>
  /**
   * Starts a bulk write into `tables` in this transaction, about `rows` rows of the first: the imports' path
   * (lib/places/batch.ts). What runs on each inserted row (the data version's bump and change log, the search
   * index's entry) and, where it pays, the tables' indexes are set aside until `finish`, which puts them back, bumps
   * the version once (logging a change of everything: the maps' indexes are read again) and indexes for search the
   * posts written meanwhile. Only after lockTables: no other writer may write meanwhile.
   */
  bulkInsert(tx: Tx, tables: readonly string[], rows: number): Promise<BulkInsert>
  /** A `contains` filter that ignores ASCII case (the admin's search). */
  containsIgnoringCase(text: string): Prisma.StringFilter
  /**
   * The public search: a query of the ids (column `id`, in no order) of the posts whose title or public address contains
   * `text`, ignoring case, public places among them (and perhaps others: the caller keeps the public places). A text of
   * three characters or more is looked up in the trigram index of those two columns (migration 0009), a shorter one
   * compared row by row.
   */
  idsContaining(text: string): Prisma.Sql
  /** A timestamp column as milliseconds since 1970 UTC, a number (the map's index keeps the posts' dates so). */
  epochMillis(column: Prisma.Sql): Prisma.Sql
  /**
   * `LEFT JOIN "posts" p` on the post whose id is `id` (SQL of the rows before it) if it passes `filter` (SQL on `p`):
   * a probe of the primary key for each row before it, whatever the planner's statistics say.
   */
  leftJoinPostById(id: Prisma.Sql, filter: Prisma.Sql): Prisma.Sql
  /** Applies `pending(applied)` under a lock that other processes migrating the same database wait for. */
  migrate(url: string, pending: PendingMigrations): Promise<string[]>
}

/**
 * The title or the public address of rows aliased `p` contains `text`, by LIKE: `%` and `_` in `text` are matched as
 * themselves, not as LIKE's wildcards. With `lower`, the database lowers the text first, for columns that hold lower
 * case (PostgreSQL's search table, migration 0011): what ILIKE does, with the columns' side done once.
 */
export function titleOrAddressLike(text: string, lower = false): Prisma.Sql {
  // `!` escapes, not `\`: a backslash in a string literal means something else where PostgreSQL's
  // standard_conforming_strings is off.
  const escaped = `%${text.replace(/[!%_]/g, '!$&')}%`
  const pattern = lower ? Prisma.sql`lower(${escaped})` : Prisma.sql`${escaped}`
  return Prisma.sql`(p."title" LIKE ${pattern} ESCAPE '!' OR p."public_address" LIKE ${pattern} ESCAPE '!')`
}
