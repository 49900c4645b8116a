// Empties the database at a DATABASE_URL, for the tests' servers (scripts/e2e-server.mts) and the bench
// (scripts/bench.mts): a SQLite file is removed with its journal; a PostgreSQL database is created if missing, else
// its `public` schema is dropped and made again. A guard against emptying a shared or production database named by a
// mistaken variable: PostgreSQL only on this machine (localhost, 127.0.0.1, ::1).
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** Throws an Error whose message says what is wrong with the URL. */
export async function resetDatabase(url: string, root = process.cwd()): Promise<void> {
  if (url.startsWith('file:')) {
    const file = path.resolve(root, url.replace(/^file:/, '').replace(/\?.*$/, ''))
    mkdirSync(path.dirname(file), { recursive: true })
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true })
    return
  }
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL)')
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error('DATABASE_URL is not a valid postgresql:// URL')
  }
  if (!LOCAL_HOSTS.has(parsed.hostname))
    throw new Error(`refusing to empty the non-local database at host "${parsed.hostname}" (only localhost, 127.0.0.1, ::1)`)
  const name = decodeURIComponent(parsed.pathname.slice(1))
  const maintenance = new URL(url)
  maintenance.pathname = '/postgres'
  const admin = new pg.Client({ connectionString: maintenance.href })
  await admin.connect()
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount === 0) await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`)
  } finally {
    await admin.end()
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('DROP SCHEMA IF EXISTS public CASCADE')
    await client.query('CREATE SCHEMA public')
  } finally {
    await client.end()
  }
}
