import 'server-only'
import os from 'node:os'
import { Worker } from 'node:worker_threads'

// HEIC decoding (libheif in WebAssembly, the heic-decode package) is synchronous JavaScript: on the main thread it
// held the event loop for one to five seconds per iPhone photo, and every other request waited (BENCHMARKS.md,
// Uploads). It runs in worker threads instead: at most one per core but one, at least one, started when a HEIC
// first comes, reused, and stopped after a minute without work, which gives back the WebAssembly memory libheif
// grew to (it never shrinks). An idle worker does not keep the process alive, so the command line exits as before.
// A file that holds its worker past a time limit (one made to be slow, or libheif stuck on it) fails, and that
// worker is stopped and replaced: one file cannot take a worker from everyone else's for good.

// What goes to and comes back from the worker (lib/media/heic-decode.worker.mjs).
type HeicJob = { bytes: Uint8Array }
type HeicAnswer = { width: number; height: number; data: Uint8ClampedArray } | { error: string }
export type DecodedHeic = { width: number; height: number; data: Uint8ClampedArray }

/** libheif's words when a file does not decode; null when the decoder died on it without a word. */
export class HeicDecodeError extends Error {
  constructor(readonly reason: string | null) {
    super(reason ?? 'the HEIC decoder stopped')
    this.name = 'HeicDecodeError'
  }
}

/** A decode that ran past its time limit: its worker was stopped, and a new one took its place. */
export class HeicDecodeTimeout extends Error {
  constructor(readonly timeLimitMs: number) {
    super(`the HEIC decoder ran past its time limit of ${timeLimitMs} ms`)
    this.name = 'HeicDecodeTimeout'
  }
}

/**
 * How long a worker may spend on one file, from the moment it gets it: many times what a 12 MP iPhone photo takes on
 * a busy two-core server, so that only a file that would hold the worker far longer reaches it.
 */
export const HEIC_DECODE_TIME_LIMIT_MS = 30_000

const POOL_SIZE = Math.max(1, os.availableParallelism() - 1)
const IDLE_MS = 60_000

type Job = { bytes: Uint8Array; timeLimitMs: number; resolve: (decoded: DecodedHeic) => void; reject: (error: Error) => void }
type Slot = { worker: Worker; job: Job | null; idle: NodeJS.Timeout | undefined; deadline: NodeJS.Timeout | undefined }

const queue: Job[] = []
const slots: Slot[] = []

/**
 * Decodes a HEIC file's first image to RGBA pixels, upright (libheif applies the file's rotation), in a worker; fails
 * with HeicDecodeTimeout when the worker takes longer than `timeLimitMs` over it.
 */
export function decodeHeic(bytes: Uint8Array, { timeLimitMs = HEIC_DECODE_TIME_LIMIT_MS }: { timeLimitMs?: number } = {}): Promise<DecodedHeic> {
  return new Promise((resolve, reject) => {
    queue.push({ bytes, timeLimitMs, resolve, reject })
    dispatch()
  })
}

/** The thread ids of the pool's workers now (for tests). */
export function heicWorkerIds(): number[] {
  return slots.map((slot) => slot.worker.threadId)
}

/** Stops every worker now; decodes under way or waiting fail. The next decode starts a new one. */
export async function closeHeicPool(): Promise<void> {
  for (const job of queue.splice(0)) job.reject(new Error('the HEIC decoders were stopped'))
  await Promise.all(slots.splice(0).map((slot) => stop(slot, new Error('the HEIC decoders were stopped'))))
}

function dispatch(): void {
  while (queue.length > 0) {
    const slot = slots.find((s) => s.job === null) ?? (slots.length < POOL_SIZE ? start() : undefined)
    if (!slot) return
    const job = queue.shift()!
    slot.job = job
    clearTimeout(slot.idle)
    slot.deadline = setTimeout(() => overrun(slot), job.timeLimitMs)
    // Held while it works: a command waiting on the decode must not exit under it.
    slot.worker.ref()
    // A copy of the file's bytes is handed over (transferred): the caller keeps its own buffer.
    const bytes = new Uint8Array(job.bytes)
    slot.worker.postMessage({ bytes } satisfies HeicJob, [bytes.buffer])
  }
}

function start(): Slot {
  // Next.js's bundler (Turbopack) builds the worker as an entry of its own from this very form.
  const worker = new Worker(new URL('./heic-decode.worker.mjs', import.meta.url))
  const slot: Slot = { worker, job: null, idle: undefined, deadline: undefined }
  slots.push(slot)
  worker.on('message', (answer: HeicAnswer) => {
    const job = takeJob(slot)
    // An answer that came after the time limit: the worker is being stopped.
    if (!job) return
    rest(slot)
    if ('error' in answer) job.reject(new HeicDecodeError(answer.error))
    else job.resolve(answer)
    dispatch()
  })
  // The worker could not start, or ran out of memory: a fault of the server, not of the file. The file's decode
  // fails with that error (a 500, logged); the next file gets a new worker.
  worker.on('error', (error) => {
    takeJob(slot)?.reject(error)
  })
  // libheif ended its thread mid-decode without an exception (Emscripten's exit on an abort): the file is one it
  // cannot decode.
  worker.on('exit', () => {
    forget(slot)
    clearTimeout(slot.idle)
    takeJob(slot)?.reject(new HeicDecodeError(null))
    dispatch()
  })
  return slot
}

/** The slot's job, taken off it with its time limit; null when it has none. */
function takeJob(slot: Slot): Job | null {
  const job = slot.job
  slot.job = null
  clearTimeout(slot.deadline)
  return job
}

function forget(slot: Slot): void {
  const index = slots.indexOf(slot)
  if (index !== -1) slots.splice(index, 1)
}

function rest(slot: Slot): void {
  slot.worker.unref()
  slot.idle = setTimeout(() => {
    forget(slot)
    void slot.worker.terminate()
  }, IDLE_MS)
  slot.idle.unref()
}

// libheif runs synchronously in its worker and cannot be asked to stop: the worker is ended (terminate() stops
// WebAssembly too) and a new one started in its place, so the pool keeps its size for the files that wait.
function overrun(slot: Slot): void {
  const job = takeJob(slot)
  forget(slot)
  void slot.worker.terminate()
  job?.reject(new HeicDecodeTimeout(job.timeLimitMs))
  rest(start())
  dispatch()
}

async function stop(slot: Slot, reason: Error): Promise<void> {
  clearTimeout(slot.idle)
  takeJob(slot)?.reject(reason)
  await slot.worker.terminate()
}
