import assert from 'node:assert/strict'
import { fork, spawnSync, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import type { Message, Reply, Request } from './places-runner'

// The command line (docs/cli.md) as the tests run it: bin/cli.ts's `main`, the code `npx places` runs, in a process
// kept per environment (places-runner.ts), one command after another. Where the process is the subject (standard
// input, a terminal, a small heap, a command killed or run under load, the bundle), tests run `node bin/places.mjs`.

// Run from the project's folder, as every test is (it names bin/, test/fixtures/ … from there).
const RUNNER = path.resolve('test', 'support', 'places-runner.ts')

/** A command's exit status (null: a process of its own killed by a signal) and what it wrote. */
export type Run = { status: number | null; stdout: string; stderr: string }

type Runner = { env: NodeJS.ProcessEnv; child: ChildProcess; ready: Promise<void>; waiting: Map<number, (reply: Reply) => void> }
const runners = new Map<string, Runner>()
let nextId = 0

function runnerFor(env: NodeJS.ProcessEnv): Runner {
  const key = JSON.stringify(env)
  let runner = runners.get(key)
  if (runner) return runner
  const child = fork(RUNNER, [], {
    execArgv: ['--conditions=react-server', '--import', 'tsx'],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const waiting = new Map<number, (reply: Reply) => void>()
  let started = () => {}
  const ready = new Promise<void>((resolve) => (started = resolve))
  child.on('message', (message: Message) => {
    if (message === 'ready') return started()
    waiting.get(message.id)?.(message)
    waiting.delete(message.id)
    if (waiting.size === 0) child.channel?.unref()
  })
  child.on('exit', (code, signal) => {
    runners.delete(key)
    const reply = { status: 1, stdout: '', stderr: `the command runner exited (${code ?? signal})` }
    for (const [id, resolve] of waiting) resolve({ id, ...reply })
    started()
  })
  // Only a command waited for keeps the tests' process alive: one that is done leaves no runner behind.
  child.unref()
  runner = { env, child, ready, waiting }
  runners.set(key, runner)
  return runner
}

/** `places ARGS` with `env` as its whole environment: its exit status and what it wrote. */
export async function places(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  const { child, ready, waiting } = runnerFor(env)
  child.channel?.ref()
  await ready
  const id = nextId++
  const { status, stdout, stderr } = await new Promise<Reply>((resolve) => {
    waiting.set(id, resolve)
    if (!child.connected) return resolve({ id, status: 1, stdout: '', stderr: 'the command runner is gone' })
    child.send({ id, args } satisfies Request)
  })
  return { status, stdout, stderr }
}

/** `places ARGS`; fails the test unless it exits 0, showing its stderr; returns its stdout, trimmed. */
export async function runPlaces(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const run = await places(env, ...args)
  assert.equal(run.status, 0, run.stderr)
  return run.stdout.trim()
}

/** `node bin/places.mjs ARGS` as `npx places` runs it, a process of its own, with `input` on its standard input (a pipe). */
export function placesProcess(env: NodeJS.ProcessEnv, args: string[], input = ''): Run {
  const { status, stdout, stderr } = spawnSync(process.execPath, ['bin/places.mjs', ...args], { env, encoding: 'utf8', input, maxBuffer: 256 * 1024 * 1024 })
  return { status, stdout, stderr }
}

/** Ends the runners of the database at `url`, before it is dropped. */
export async function stopPlaces(url: string): Promise<void> {
  const stopping = [...runners.values()].filter((runner) => runner.env.DATABASE_URL === url && runner.child.connected)
  await Promise.all(
    stopping.map(({ child }) => {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.ref() // its exit is waited for
      child.disconnect()
      return exited
    }),
  )
}
