import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'

export type CategoryRow = { id: number; name: string; parentId: number | null }

/**
 * The categories table, read directly: there is no category route, and the specs must learn which ids the CLI gave
 * the fixture's categories.
 */
export async function readCategories(databaseUrl: string): Promise<CategoryRow[]> {
  const sql = 'SELECT "id", "name", "parent_id" AS "parentId" FROM "categories" ORDER BY "id"'
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const { rows } = await client.query<CategoryRow>(sql)
      return rows.map((row) => ({ id: Number(row.id), name: row.name, parentId: row.parentId === null ? null : Number(row.parentId) }))
    } finally {
      await client.end()
    }
  }
  const file = path.resolve(databaseUrl.replace(/^file:/, '').replace(/\?.*$/, ''))
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    return db.prepare(sql).all() as CategoryRow[]
  } finally {
    db.close()
  }
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
