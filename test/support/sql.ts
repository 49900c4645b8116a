import Database from 'better-sqlite3'
import pg from 'pg'

/**
 * The rows of one query on the test database at `url` (SQLite `file:` or PostgreSQL), on a connection of its own:
 * for a test that checks what is stored, beside the server or the command line. Parameters are `?` on both.
 */
export async function queryRows<Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  if (url.startsWith('file:')) {
    const db = new Database(url.slice('file:'.length), { readonly: true })
    try {
      return db.prepare(sql).all(...params) as Row[]
    } finally {
      db.close()
    }
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    let n = 0
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as Row[]
  } finally {
    await client.end()
  }
}

/** Runs `sql` (one or more statements, no parameters) on the test database at `url`: for a test that changes its schema. */
export async function execute(url: string, sql: string): Promise<void> {
  if (url.startsWith('file:')) {
    const db = new Database(url.slice('file:'.length))
    try {
      db.exec(sql)
    } finally {
      db.close()
    }
    return
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/**
 * Whether another connection holds the write lock of the database at `url`: on SQLite an open write transaction
 * (BEGIN IMMEDIATE is refused at once), on PostgreSQL a lock taken with LOCK TABLE `table` IN SHARE ROW EXCLUSIVE
 * MODE, as the importers take it.
 */
export async function writeLockHeld(url: string, table: string): Promise<boolean> {
  if (url.startsWith('file:')) {
    const db = new Database(url.slice('file:'.length), { timeout: 0 })
    try {
      db.exec('BEGIN IMMEDIATE')
      db.exec('ROLLBACK')
      return false
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true
      throw error
    } finally {
      db.close()
    }
  }
  const rows = await queryRows<{ held: boolean }>(
    url,
    `SELECT count(*) > 0 AS held FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = ? AND l.mode = 'ShareRowExclusiveLock' AND l.granted`,
    [table],
  )
  return rows[0]!.held
}
