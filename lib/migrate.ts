import 'server-only'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { getConfig } from './config'
import { dialectOf, sqliteFile, type Dialect } from './db'

// Prisma's migrate engine is a native binary that cannot be fetched on offline machines, so the schema lives in
// plain SQL files, one folder per dialect, applied in name order and recorded. Deciding what is pending and applying
// it is one locked step on both databases, so that processes starting at once (app instances, a command line beside
// a server) apply each file once: on SQLite one IMMEDIATE transaction (the write lock) for the whole step, on
// PostgreSQL an advisory lock around it, each file in a transaction of its own.

type Migration = { name: string; sql: string; checksum: string }

const LEDGER = '_places_migrations'
// Any fixed number: several app instances starting at once on one PostgreSQL migrate one after the other.
const PG_LOCK_KEY = 727_001

export function readMigrations(dialect: Dialect): Migration[] {
  const folder = path.join(process.cwd(), 'prisma', 'migrations', dialect)
  return readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(folder, name), 'utf8')
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') }
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

/** Brings the database at `url` to the current schema; returns the names of the migrations it applied. */
export async function migrate(url: string = getConfig().databaseUrl): Promise<string[]> {
  const dialect = dialectOf(url)
  const migrations = readMigrations(dialect)
  return dialect === 'sqlite' ? migrateSqlite(url, migrations) : migratePostgres(url, migrations)
}

function migrateSqlite(url: string, migrations: Migration[]): string[] {
  const db = new Database(sqliteFile(url), { timeout: 15_000 })
  try {
    // WAL lets readers go on while one writer writes; the mode is kept in the file.
    db.pragma('journal_mode = WAL')
    db.exec(`CREATE TABLE IF NOT EXISTS "${LEDGER}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TEXT NOT NULL)`)
    const record = db.prepare(`INSERT INTO "${LEDGER}" ("name", "checksum", "applied_at") VALUES (?, ?, ?)`)
    // All or nothing, under the write lock from the ledger's read to the last file: another process waits, then
    // finds nothing pending.
    return db.transaction(() => {
      const rows = db.prepare(`SELECT "name", "checksum" FROM "${LEDGER}"`).all() as { name: string; checksum: string }[]
      const todo = pending(migrations, new Map(rows.map((r) => [r.name, r.checksum])))
      for (const m of todo) {
        db.exec(m.sql)
        record.run(m.name, m.checksum, new Date().toISOString())
      }
      return todo.map((m) => m.name)
    }).immediate()
  } finally {
    db.close()
  }
}

async function migratePostgres(url: string, migrations: Migration[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PG_LOCK_KEY])
    await client.query(`CREATE TABLE IF NOT EXISTS "${LEDGER}" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TIMESTAMPTZ NOT NULL)`)
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT "name", "checksum" FROM "${LEDGER}"`)
    const todo = pending(migrations, new Map(rows.map((r) => [r.name, r.checksum])))
    for (const m of todo) {
      await client.query('BEGIN')
      try {
        await client.query(m.sql)
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
