#!/usr/bin/env node
// Playwright's one web server (playwright.config.ts): starts every server the projects need side by side, each when
// the one it depends on is ready, and says so on stdout when all are. Playwright starts the servers of a `webServer`
// list one after the other, each waited for; most of a server's start is one process's work (a database reset, the
// command line's loading of its data, next's start), so on two cores two at a time take about half as long.
//
// E2E_SERVERS is the list, as JSON: [{ name, command, env, url | port, after? }]. A server is ready when its `url`
// answers 2xx (the app's /healthz) or its `port` takes connections. Each server's stderr is passed on, its lines
// prefixed with its name. Any server that exits, or is not ready within TIMEOUT_MS, stops them all (exit 1).
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { setTimeout as wait } from 'node:timers/promises'

type Server = { name: string; command: string; env: Record<string, string>; url?: string; port?: number; after?: string }

const TIMEOUT_MS = 180_000
const servers = JSON.parse(process.env.E2E_SERVERS ?? '[]') as Server[]
const children: ChildProcess[] = []

function fail(message: string): never {
  console.error(`e2e-servers: ${message}`)
  for (const child of children) child.kill('SIGTERM')
  process.exit(1)
}

function portOf(server: Server): number {
  return server.port ?? Number(new URL(server.url!).port)
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

async function isReady(server: Server): Promise<boolean> {
  if (!server.url) return listening(server.port!)
  return fetch(server.url).then(
    (response) => response.ok,
    () => false,
  )
}

/** Prefixes each line of `stream` with the server's name, as Playwright's `[WebServer]`. */
function passOn(stream: NodeJS.ReadableStream, name: string): void {
  let rest = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop()!
    for (const line of lines) process.stderr.write(`[${name}] ${line}\n`)
  })
  stream.on('end', () => rest && process.stderr.write(`[${name}] ${rest}\n`))
}

const started = new Map<string, Promise<void>>()

function start(server: Server): Promise<void> {
  let promise = started.get(server.name)
  if (promise) return promise
  const before = server.after && servers.find((s) => s.name === server.after)
  if (server.after && !before) fail(`${server.name} starts after ${server.after}, which is not in the list`)
  promise = (async () => {
    if (before) await start(before)
    const child = spawn(server.command, { shell: true, env: { ...process.env, ...server.env }, stdio: ['ignore', 'ignore', 'pipe'] })
    children.push(child)
    passOn(child.stderr, server.name)
    child.once('exit', (code, signal) => fail(`${server.name} exited (${code ?? signal}): ${server.command}`))
    const deadline = Date.now() + TIMEOUT_MS
    while (!(await isReady(server))) {
      if (Date.now() > deadline) fail(`${server.name} was not ready within ${TIMEOUT_MS / 1000} s`)
      await wait(100)
    }
  })()
  started.set(server.name, promise)
  return promise
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
    process.exit(0)
  })
}

// A port already taken is another run's server: its answers would pass for this run's.
const taken = (await Promise.all(servers.map(async (server) => ((await listening(portOf(server))) ? server : null)))).filter((s) => s !== null)
if (taken.length > 0) fail(`already in use: ${taken.map((s) => `${s.name}'s port ${portOf(s)}`).join(', ')} (another run's server?)`)
const since = Date.now()
await Promise.all(servers.map(start))
console.log(`e2e-servers: every server is ready (${servers.map((s) => s.name).join(', ')}; ${((Date.now() - since) / 1000).toFixed(1)} s)`)
// Running until Playwright stops the process group.
