import 'server-only'
import { getConfig } from '../config'
import { closeBeforeExit } from '../on-exit'
import { Prisma } from '../generated/sqlite/client'
import type { BulkInsert, Connection, Db, Dialect, DialectDriver, StreamOptions, Table, Tx } from './dialect'
import { postgresql } from './postgresql'
import { sqlite, sqliteFile } from './sqlite'

// The database, whichever it is: each dialect's differences live in its own file (sqlite.ts, postgresql.ts) behind
// one interface (dialect.ts); the rest of the app asks this module for what it needs.

export type { BulkInsert, Db, Dialect, Table, Tx }
export { sqliteFile }

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgresql' : 'sqlite'
}

/** The dialect of the database at `url`. */
export function driverOf(url: string): DialectDriver {
  return dialectOf(url) === 'postgresql' ? postgresql : sqlite
}

function driver(): DialectDriver {
  return driverOf(getConfig().databaseUrl)
}

/** A Prisma client of its own, for tools that need one apart from the app's (the schema test, say). */
export function createDb(url: string, { poolMax = getConfig().pgPoolMax } = {}): Db {
  return driverOf(url).connect(url, { poolMax }).db
}

const cache = globalThis as unknown as { placesDb?: { url: string; connection: Connection } }

function connection(): Connection {
  const { databaseUrl: url, pgPoolMax: poolMax } = getConfig()
  if (cache.placesDb?.url !== url) {
    cache.placesDb = { url, connection: driverOf(url).connect(url, { poolMax }) }
    closeBeforeExit(disconnectDb)
  }
  return cache.placesDb.connection
}

export function getDb(): Db {
  return connection().db
}

/**
 * The data version: bumped by database triggers on every write the public routes depend on (prisma/migrations),
 * and read on every public request. So it is read with the driver itself, not through Prisma, whose work around a
 * query costs 50–100 times more than this one-row read (BENCHMARKS.md): on SQLite by a read-only connection of its
 * own, on PostgreSQL through the pool Prisma uses.
 */
export async function readDataVersion(): Promise<number> {
  const version = await connection().readVersion()
  if (version === undefined) throw new Error('site_state row is missing: the database was not migrated by Places')
  return version
}

/**
 * The rows of a read-only raw query (Prisma.sql), `size` at a time, each row an array of its columns' values: all from
 * one snapshot of the data, read on a connection of its own. For more rows than should be held at once as objects
 * (the map's index of every place). Values must be numbers or strings (SQLite binds no booleans).
 */
export function streamRows(query: Prisma.Sql, size: number, options: StreamOptions = {}): AsyncGenerator<unknown[][]> {
  return connection().stream(query, size, options)
}

/**
 * Ids asked for in one query: Prisma binds at most 999 values a query on SQLite (32,766 on PostgreSQL), and the
 * query's other values must fit beside them.
 */
export const IDS_PER_QUERY = 900

/** The first column of every row of `query`, whole numbers below 2^31 (ids), read at once. */
export function readIds(query: Prisma.Sql): Promise<Int32Array> {
  return connection().readIds(query)
}

/**
 * Runs `write` in one transaction: all of it or none of it. The one way to open a transaction: on the server's
 * SQLite it runs apart from other queries and is retried whole while another writer holds the lock, so `write`
 * must do nothing but database work.
 */
export async function transaction<T>(write: (tx: Tx) => Promise<T>, options: { maxWait?: number; timeout?: number } = {}): Promise<T> {
  return connection().transaction(write, { maxWait: 10_000, ...options })
}

export function getDialect(): Dialect {
  return driver().name
}

/** Takes the write lock on `tables` for the rest of the transaction, before reading what the writes depend on. */
export function lockTables(tx: Tx, tables: readonly Table[]): Promise<void> {
  return driver().lockTables(tx, tables)
}

/** Locks the administrators' rows for the rest of the transaction (a count of them then holds for the write). */
export function lockAdministrators(tx: Tx): Promise<void> {
  return driver().lockAdministrators(tx)
}

/** Locks the rows of posts `ids` for the rest of the transaction, without writing them (no data version is bumped). */
export function lockPosts(tx: Tx, ids: readonly number[]): Promise<void> {
  return driver().lockPosts(tx, ids)
}

/** Takes background job `job` for the rest of the transaction; false when another process runs it now. */
export function tryLockJob(tx: Tx, job: string): Promise<boolean> {
  return driver().tryLockJob(tx, job)
}

/** The database's clock: the same for every instance, whatever each machine's clock says. */
export function databaseNow(tx: Tx): Promise<Date> {
  return driver().now(tx)
}

/** After posts were written with their own ids: new posts get ids past them. */
export function resetPostIdSequence(tx: Tx): Promise<void> {
  return driver().resetPostIdSequence(tx)
}

/** After attachments were written with their own ids: new uploads get ids past them. */
export function resetAttachmentIdSequence(tx: Tx): Promise<void> {
  return driver().resetAttachmentIdSequence(tx)
}

/** Names go into the bulk write's SQL as they are: only plain ones. */
function assertPlainNames(names: readonly string[]): void {
  for (const name of names) if (!/^[a-z_]+$/.test(name)) throw new Error(`bulkInsert: not a plain name: ${name}`)
}

/**
 * Starts a bulk write into `tables` (about `rows` rows of the first): the per-row triggers, and where it pays the
 * indexes, wait for its `finish` (dialect.ts).
 */
export async function bulkInsert(tx: Tx, tables: readonly string[], rows: number): Promise<BulkInsert> {
  assertPlainNames(tables)
  const bulk = await driver().bulkInsert(tx, tables, rows)
  return {
    insert: (table, columns, values) => {
      assertPlainNames([table, ...columns])
      return bulk.insert(table, columns, values)
    },
    finish: () => bulk.finish(),
  }
}

/** A `contains` filter that ignores ASCII case, on either database. */
export function containsIgnoringCase(text: string): Prisma.StringFilter {
  return driver().containsIgnoringCase(text)
}

/**
 * The public search (docs/api.md, search): a query of the ids (column `id`, ascending) of the posts whose title or public
 * address contains `text`, ignoring case, answered from the database's text index where `text` has three characters
 * or more. It may hold posts that are no public place: the caller keeps those of its map index.
 */
export function idsContainingSql(text: string): Prisma.Sql {
  return driver().idsContaining(text)
}

/** A timestamp column as milliseconds since 1970 UTC, a number, as SQL for a raw query. */
export function epochMillisSql(column: Prisma.Sql): Prisma.Sql {
  return driver().epochMillis(column)
}

/** `LEFT JOIN "posts" p` by primary key, a probe for each row before it (DialectDriver.leftJoinPostById). */
export function leftJoinPostByIdSql(id: Prisma.Sql, filter: Prisma.Sql): Prisma.Sql {
  return driver().leftJoinPostById(id, filter)
}

/** Closes the client's connections (PostgreSQL pools would otherwise keep a finished command alive). */
export async function disconnectDb(): Promise<void> {
  const current = cache.placesDb?.connection
  cache.placesDb = undefined
  await current?.close()
}
