import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort } from './server'
import { waitFor } from './wait'

// Debian's PgBouncer in transaction mode in front of a PostgreSQL database, as README's Deployment describes: each
// transaction may run on another server connection, and nothing of a session survives it. For
// test/server/pgbouncer.test.ts and the e2e server of the PostgreSQL API tests (scripts/e2e-server.mts).

export const PGBOUNCER = '/usr/sbin/pgbouncer'

export const pgBouncerMissing = (): string | false => !existsSync(PGBOUNCER) && !process.env.CI && 'pgbouncer is not installed (Debian package pgbouncer)'

export type RunningPgBouncer = {
  /** `databaseUrl` with PgBouncer's port */
  url: string
  stop: () => Promise<void>
}

/** PgBouncer on a free port in front of the server of `databaseUrl`, answering once it passes a query on. */
export async function startPgBouncer(databaseUrl: string): Promise<RunningPgBouncer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'places-pgbouncer-'))
  // Run as root, pgbouncer must drop to another user, who reads its files here.
  chmodSync(dir, 0o755)
  const postgres = new URL(databaseUrl)
  const port = await freePort()
  // Its auth file's format: each name and password in double quotes, a quote in them doubled.
  const quoted = (value: string) => `"${decodeURIComponent(value).replaceAll('"', '""')}"`
  writeFileSync(path.join(dir, 'users.txt'), `${quoted(postgres.username)} ${quoted(postgres.password)}\n`)
  writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${postgres.hostname} port=${postgres.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = plain',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 8',
      'max_client_conn = 500',
      'log_connections = 0',
      'log_disconnections = 0',
      '',
    ].join('\n'),
  )
  // Its log is shown only if it stops.
  const bouncer = spawn(PGBOUNCER, [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let log = ''
  const keep = (chunk: string) => (log += chunk)
  bouncer.stderr.setEncoding('utf8').on('data', keep)
  const stop = async () => {
    if (bouncer.exitCode === null && bouncer.signalCode === null) {
      bouncer.kill('SIGTERM')
      await new Promise((resolve) => bouncer.once('exit', resolve))
    }
  }
  const pooled = new URL(databaseUrl)
  pooled.port = String(port)
  try {
    await waitFor('pgbouncer to answer', async () => {
      if (bouncer.exitCode !== null) throw new Error(`pgbouncer exited with ${bouncer.exitCode}:\n${log}`)
      const client = new pg.Client({ connectionString: pooled.href })
      try {
        await client.connect()
        await client.query('SELECT 1')
        return true
      } catch {
        return undefined
      } finally {
        await client.end().catch(() => {})
      }
    })
  } catch (error) {
    await stop()
    throw error
  } finally {
    // Read at its start: nothing is left behind, even when the process that started it is killed.
    rmSync(dir, { recursive: true, force: true })
    // Its log is shown only if it stops before it answers; read and let go after.
    bouncer.stderr.off('data', keep).resume()
  }
  return { url: pooled.href, stop }
}
