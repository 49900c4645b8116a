import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'

export type CategoryRow = { id: number; name: string; parentId: number | null }

/**
 * A statement on the project's database, for what no route or command can do or tell (the categories' ids the CLI
 * gave, an attachment's explicit order); its rows, if it reads any. `?` placeholders, on SQLite and PostgreSQL alike.
 */
export async function querySql<T>(databaseUrl: string, sql: string, params: (string | number)[] = []): Promise<T[]> {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    let n = 0
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      return (
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows as T[]
    } finally {
      await client.end()
    }
  }
  const db = new Database(path.resolve(databaseUrl.replace(/^file:/, '').replace(/\?.*$/, '')), { fileMustExist: true, timeout: 15_000 })
  try {
    const statement = db.prepare(sql)
    if (statement.reader) return statement.all(...params) as T[]
    statement.run(...params)
    return []
  } finally {
    db.close()
  }
}

/** A statement that reads nothing (querySql). */
export async function execSql(databaseUrl: string, sql: string, params: (string | number)[] = []): Promise<void> {
  await querySql(databaseUrl, sql, params)
}

/** The categories table, read directly: there is no category route. */
export async function readCategories(databaseUrl: string): Promise<CategoryRow[]> {
  const rows = await querySql<CategoryRow>(databaseUrl, 'SELECT "id", "name", "parent_id" AS "parentId" FROM "categories" ORDER BY "id"')
  // node-postgres reads a BIGINT as a string.
  return rows.map((row) => ({ id: Number(row.id), name: row.name, parentId: row.parentId === null ? null : Number(row.parentId) }))
}

/** `"Europe > France > Paris"` → its id, for every category. */
export function categoryIdsByPath(rows: CategoryRow[]): Map<string, number> {
  const byId = new Map(rows.map((row) => [row.id, row]))
  const pathOf = (row: CategoryRow): string => {
    const parent = row.parentId === null ? undefined : byId.get(row.parentId)
    return parent ? `${pathOf(parent)} > ${row.name}` : row.name
  }
  return new Map(rows.map((row) => [pathOf(row), row.id]))
}
