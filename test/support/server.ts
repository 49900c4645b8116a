import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'

// The production build (`next build`, which npm test runs first) served by `next start`, for tests that need the
// real routes over a database they prepared.

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

export type RunningServer = {
  url: string
  /** what the server has written on stdout so far, a line an entry */
  output: string[]
  process: ChildProcess
  stop: () => Promise<void>
}

const TEST_AUTH_SECRET = 'places-test-server-auth-secret-0123456789'

/** The keep-alive `npm run serve` gives `next start` (package.json's script), in milliseconds. */
export const SERVE_KEEP_ALIVE_MS = Number(
  /--keepAliveTimeout (\d+)/.exec((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { serve: string } }).scripts.serve)?.[1],
)

/** `next start` over the production build, with `env` and the keep-alive `npm run serve` gives it unless told. */
export async function startServer(env: Record<string, string>, { keepAliveMs = SERVE_KEEP_ALIVE_MS } = {}): Promise<RunningServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(
    process.execPath,
    [path.resolve('node_modules/next/dist/bin/next'), 'start', '-p', String(port), '--keepAliveTimeout', String(keepAliveMs)],
    {
      // A secret of the tests' own: a server on PostgreSQL refuses to start without one, and on SQLite it would write
      // ./data/auth-secret into the project.
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', SITE_URL: url, PORT: String(port), AUTH_SECRET: TEST_AUTH_SECRET, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const output: string[] = []
  let partial = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n')
    partial = lines.pop() ?? ''
    output.push(...lines)
  })
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`)
    try {
      // Ready as a load balancer sees it: started, and the home map's index built (lib/health.ts).
      if ((await fetch(`${url}/healthz`)).status === 200) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('next start was not ready (GET /healthz 200) within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    url,
    output,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
