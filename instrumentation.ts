// Runs once when a server starts: the database is created (SQLite: under ./data/) and brought to the current
// schema before the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return
  const { migrate } = await import('./lib/migrate')
  const applied = await migrate()
  if (applied.length > 0) console.log(`Places: database migrated (${applied.join(', ')})`)
}
