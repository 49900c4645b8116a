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

/**
 * Runs `run` while the database at `url` refuses to insert a post titled "Refused", as a database may refuse a row
 * (a constraint, a full disk): a trigger of the test's raises "refused by the test", and is dropped afterwards.
 */
export async function refusingPosts<T>(url: string, run: () => Promise<T> | T): Promise<T> {
  const sqlite = url.startsWith('file:')
  await execute(
    url,
    sqlite
      ? `CREATE TRIGGER "test_refuse" BEFORE INSERT ON "posts" WHEN NEW."title" = 'Refused' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`
      : `CREATE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
         CREATE TRIGGER test_refuse BEFORE INSERT ON posts FOR EACH ROW WHEN (NEW.title = 'Refused') EXECUTE FUNCTION test_refuse()`,
  )
  try {
    return await run()
  } finally {
    await execute(url, sqlite ? 'DROP TRIGGER "test_refuse"' : 'DROP TRIGGER test_refuse ON posts; DROP FUNCTION test_refuse()')
  }
}
