import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { type Prisma as PostgresPrisma, PrismaClient } from '../generated/postgresql/client'
import { Prisma } from '../generated/sqlite/client'
import {
  REWRITE_BATCH,
  titleOrAddressLike,
  type Comparable,
  type Connection,
  type Db,
  type DialectDriver,
  type PendingMigrations,
  type Rewrite,
  type Tx,
} from './dialect'

const VERSION_SQL = 'SELECT "data_version" FROM "site_state" WHERE "id" = 1'

/**
 * The pool's connections by their server process, per transaction client: a bulk write finds the connection its
 * transaction runs on (bulkInsert) and sends its rows there with COPY, which Prisma does not speak. Behind a pooler
 * (PgBouncer), the process a connection names is the pooler's, and none is found. Kept on globalThis, as
 * lib/db/index.ts keeps the connection: the server's bundle may hold two copies of this module (a page's and a server
 * action's), and one copy's bulkInsert must find what the other's transaction() recorded.
 */
const shared = globalThis as unknown as { placesPgTransactions?: WeakMap<Tx, Map<number, pg.PoolClient>> }
const connectionsOfTransaction = (shared.placesPgTransactions ??= new WeakMap())

function connect(url: string, { poolMax }: { poolMax: number }): Connection {
  // One pool for Prisma and for the version read; Prisma's $disconnect ends it.
  const pool = new pg.Pool({ connectionString: url, max: poolMax })
  const byProcess = new Map<number, pg.PoolClient>()
  pool.on('connect', (connection) => {
    const { processID } = connection as pg.PoolClient & { processID: number }
    byProcess.set(processID, connection)
    connection.on('end', () => {
      if (byProcess.get(processID) === connection) byProcess.delete(processID)
    })
  })
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) })
  return {
    db: asDb(client),
    transaction: (write, options) =>
      client.$transaction((tx) => {
        connectionsOfTransaction.set(asDb(tx), byProcess)
        return write(asDb(tx))
      }, options),
    // A BIGINT, which pg reads as a string: versions stay far below 2^53.
    readVersion: async () => {
      const version = (await pool.query<{ data_version: string }>(VERSION_SQL)).rows[0]?.data_version
      return version === undefined ? undefined : Number(version)
    },
    stream: (query, size, { turnWaitMs }) => streamRows(pool, query, size, turnWaitMs),
    // The ids in one value, four bytes each (int4send's, big-endian), rather than a row each: tens of thousands of rows
    // cost the driver more than the query (the bench's texts at 1,000,000 places: p50 67 ms through a cursor, 41 ms so;
    // BENCHMARKS.md).
    readIds: async (query) => {
      const { rows } = await pool.query<[Buffer | null]>({
        text: `SELECT string_agg(int4send(q."id"), ''::bytea) FROM (${query.text}) q`,
        values: query.values,
        rowMode: 'array',
      })
      const bytes = rows[0]?.[0] ?? Buffer.alloc(0)
      const ids = new Int32Array(bytes.length / 4)
      for (let i = 0; i < ids.length; i++) ids[i] = bytes.readInt32BE(4 * i)
      return ids
    },
    close: async () => {
      await client.$disconnect()
      if (!pool.ended) await pool.end() // when Prisma never connected
    },
  }
}

/**
 * The PostgreSQL client as the app's Db (the SQLite client's types, dialect.ts). The compiler checks all of it but
 * `aggregate` and `groupBy` (Comparable), whose result types are the same conditional types in both generated
 * clients, which it cannot compare; so this one conversion, checked first as far as the compiler can.
 */
function asDb<C extends Comparable<Tx>>(client: C): Db & Tx {
  return client as unknown as Db & Tx
}

async function* streamRows(pool: pg.Pool, query: Prisma.Sql, size: number, turnWaitMs: number | undefined): AsyncGenerator<unknown[][]> {
  const client = await pool.connect()
  let done = false
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    if (turnWaitMs !== undefined) await waitForTurn(client, turnWaitMs)
    // Every stream is read to its end, and planned so: a cursor is otherwise planned for its first tenth, and the
    // search's ids (when they were streamed) came from a walk of the primary key checking every row (200 ms rather
    // than 30 at 1,000,000 places). A random read costed as solid-state storage does (1.1, as PostgreSQL's documentation suggests for SSDs,
    // rather than the 4 of spinning disks). For this transaction only, so that it holds behind poolers that refuse
    // startup options.
    await client.query('SET LOCAL cursor_tuple_fraction = 1; SET LOCAL random_page_cost = 1.1')
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
    const broken =
      !done &&
      (await client.query('ROLLBACK').then(
        () => false,
        () => true,
      ))
    client.release(broken)
  }
}

// The advisory lock of the reads that take turns (StreamOptions): held until the reader's transaction ends.
const TURN_LOCK_KEY = 727_003

/**
 * Waits at most `ms` for the turn's lock, in the transaction of `client`; past that, goes on without it (a lock wait
 * given up fails the statement, which its savepoint takes back). The snapshot is the one of the lock's statement:
 * as new as the data version the reader read before it, if older than when its turn came.
 */
async function waitForTurn(client: pg.PoolClient, ms: number): Promise<void> {
  await client.query(`SAVEPOINT turn; SET LOCAL lock_timeout = ${Math.max(1, Math.round(ms))}`)
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [TURN_LOCK_KEY])
    await client.query('RELEASE SAVEPOINT turn; SET LOCAL lock_timeout = DEFAULT')
  } catch (error) {
    if ((error as { code?: string }).code !== LOCK_NOT_AVAILABLE) throw error
    await client.query('ROLLBACK TO SAVEPOINT turn')
  }
}

/** SQLSTATE of a lock not taken within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03'

const LEDGER = '_places_migrations'
// Any fixed number: several app instances starting at once on one PostgreSQL migrate one after the other.
const LOCK_KEY = 727_001
const MIGRATION_LOCK_TIMEOUT = '10s'
// The background jobs' advisory locks: this number and a hash of the job's name.
const JOB_LOCK_SPACE = 727_002

async function rewrite(client: pg.Client, { table, column, convert }: Rewrite): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await client.query<{ id: number; value: string }>(
      `SELECT "id", "${column}" AS "value" FROM "${table}" WHERE "id" > $1 AND "${column}" <> '' ORDER BY "id" LIMIT $2`,
      [after, REWRITE_BATCH],
    )
    if (rows.length === 0) return
    // One statement a batch: the new values as two arrays, joined to the rows by id.
    await client.query(`UPDATE "${table}" AS t SET "${column}" = v."value" FROM unnest($1::int[], $2::text[]) AS v("id", "value") WHERE t."id" = v."id"`, [
      rows.map((row) => row.id),
      rows.map((row) => convert(row.value)),
    ])
    after = rows.at(-1)!.id
  }
}

async function migrate(url: string, pending: PendingMigrations): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // An advisory lock around the whole step, each file in a transaction of its own.
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY])
    // Then a change of a table waits at most this long for its lock: while it waits, every query of that table from
    // the running instances would queue behind it. Failing, it is rolled back, and the next start tries again.
    await client.query(`SET lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`)
    await client.query(`CREATE TABLE IF NOT EXISTS "${LEDGER}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TIMESTAMPTZ NOT NULL)`)
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "${LEDGER}"`)
    const todo = pending(new Map(rows.map((r) => [r.name, r.checksum])))
    for (const m of todo) {
      await client.query('BEGIN')
      try {
        await client.query(m.sql)
        if (m.rewrite) await rewrite(client, m.rewrite)
        await client.query(`INSERT INTO "${LEDGER}" ("name", "checksum", "applied_at") VALUES ($1, $2, now())`, [m.name, m.checksum])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw error
      }
    }
    return todo.map((m) => m.name)
  } finally {
    await client.end()
  }
}

/**
 * A row as COPY's CSV reads it: null unquoted and empty, every text quoted (an empty one too), a date in ISO 8601
 * (UTC, which the timestamp columns hold, as Prisma writes them).
 */
function csvLine(row: readonly unknown[]): string {
  const quote = (text: string) => `"${text.replaceAll('"', '""')}"`
  const field = (value: unknown) => {
    if (value === null || value === undefined) return ''
    if (value instanceof Date) return quote(value.toISOString())
    if (typeof value === 'string') return quote(value)
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${value}`
    throw new Error(`bulkInsert: not a column's value: ${JSON.stringify(value)}`)
  }
  return `${row.map(field).join(',')}\n`
}

// Table names come from the fixed `Table` union, never from input.
const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ')

export const postgresql: DialectDriver = {
  name: 'postgresql',
  connect,
  // Other writers wait; readers go on.
  lockTables: async (tx, tables) => {
    await tx.$executeRawUnsafe(`LOCK TABLE ${quoted(tables)} IN SHARE ROW EXCLUSIVE MODE`)
  },
  lockAdministrators: async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "users" WHERE "role" = 'administrator' FOR UPDATE`
  },
  lockPosts: async (tx, ids) => {
    if (ids.length > 0) await tx.$executeRaw`SELECT 1 FROM "posts" WHERE "id" IN (${Prisma.join([...ids])}) ORDER BY "id" FOR UPDATE`
  },
  tryLockJob: async (tx, job) => {
    const [row] = await tx.$queryRaw<[{ taken: boolean }]>`SELECT pg_try_advisory_xact_lock(${JOB_LOCK_SPACE}, hashtext(${job})) AS "taken"`
    return row.taken
  },
  now: async (tx) => (await tx.$queryRaw<[{ now: Date }]>`SELECT now() AS "now"`)[0].now,
  resetPostIdSequence: async (tx) => {
    await tx.$executeRaw`SELECT setval(pg_get_serial_sequence('posts', 'id'), (SELECT MAX("id") FROM "posts"))`
  },
  resetAttachmentIdSequence: async (tx) => {
    await tx.$executeRaw`SELECT setval(pg_get_serial_sequence('attachments', 'id'), (SELECT MAX("id") FROM "attachments"))`
  },
  // Its triggers run once a statement already (the search's table follows each chunk, migration 0011); dropping an
  // index would lock the table against readers. The rows go by COPY on the transaction's own connection, into a
  // table of the transaction's (dropped with it), then into theirs by one statement on the same connection: should the
  // transaction end meanwhile (its timeout, say) that table is gone with it, and nothing is written outside it. Where
  // the connection is not found (behind a pooler), each chunk goes through Prisma as one JSON parameter instead.
  bulkInsert: async (tx) => {
    const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS "pid"`
    const connection = row && connectionsOfTransaction.get(tx)?.get(row.pid)
    const staged = new Set<string>()
    return {
      insert: async (table, columns, rows) => {
        const list = quoted(columns)
        if (!connection) {
          const objects = rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index]])))
          await tx.$executeRawUnsafe(
            `INSERT INTO "${table}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${table}", $1::json)`,
            JSON.stringify(objects),
          )
          return
        }
        const stage = `places_bulk_${table}`
        if (!staged.has(stage)) {
          await tx.$executeRawUnsafe(`CREATE TEMPORARY TABLE "${stage}" (LIKE "${table}") ON COMMIT DROP`)
          staged.add(stage)
        }
        await pipeline(Readable.from([rows.map(csvLine).join('')]), connection.query(copyFrom(`COPY "${stage}" (${list}) FROM STDIN (FORMAT csv)`)))
        await connection.query(`INSERT INTO "${table}" (${list}) SELECT ${list} FROM "${stage}"; TRUNCATE "${stage}"`)
      },
      finish: () => Promise.resolve(),
    }
  },
  // PostgreSQL compares case-sensitively unless told.
  containsIgnoringCase: (text) => {
    const filter: PostgresPrisma.StringFilter = { contains: text, mode: 'insensitive' }
    return filter
  },
  // The search's own table of the public places' text in lower case (migration 0011), whose pg_trgm indexes answer
  // LIKE for three characters or more.
  idsContaining: (text) => Prisma.sql`SELECT p."id" FROM "posts_search" p WHERE ${titleOrAddressLike(text, true)}`,
  // Prisma's DateTime is a timestamp without time zone, holding UTC; float8 comes back as a JavaScript number.
  epochMillis: (column) => Prisma.sql`(extract(epoch FROM ${column}) * 1000)::float8`,
  // LATERAL, and LIMIT so that it is not pulled up into a plain join: with a stale histogram (a log of versions read
  // past the last ANALYZE) the planner took thousands of changes for one and scanned every public post for each: 24 s.
  leftJoinPostById: (id, filter) => Prisma.sql`LEFT JOIN LATERAL (SELECT * FROM "posts" p WHERE p."id" = ${id} AND ${filter} LIMIT 1) p ON TRUE`,
  migrate,
}
