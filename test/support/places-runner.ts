// A command line kept running for the tests (test/support/cli.ts forks one per environment): the commands it is sent
// run one after another in this process, each as bin/run.ts runs one (bin/cli.ts's `main`), their output captured and
// sent back with their exit code. A command in a process of its own spends about 0.5 s of CPU before its work (node,
// the modules, Prisma's query compiler); the tests run over a thousand. What only a process of its own shows (standard
// input, a terminal, its heap, the bundle) is still tested so (test/cli).
import { main } from '../../bin/cli'

export type Request = { id: number; args: string[] }
export type Reply = { id: number; status: number; stdout: string; stderr: string }
export type Message = Reply | 'ready'

// The test process is gone, or is done with this database: so is this.
process.on('disconnect', () => process.exit(0))

/** Runs `main` with what it writes to stdout and stderr kept rather than written. */
async function captured(args: string[]): Promise<Omit<Reply, 'id'>> {
  const output = { stdout: '', stderr: '' }
  for (const name of ['stdout', 'stderr'] as const) {
    // An own property over the stream's method, deleted after.
    process[name].write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      output[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
      const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined
      callback?.()
      return true
    }
  }
  try {
    const status = await main(args)
    return { status, ...output }
  } catch (error) {
    // What would have ended the process: an exit of 1 with its stack, as node prints it.
    return { status: 1, stdout: output.stdout, stderr: `${output.stderr}${(error as Error).stack ?? String(error)}\n` }
  } finally {
    for (const name of ['stdout', 'stderr'] as const) delete (process[name] as { write?: unknown }).write
  }
}

let queue = Promise.resolve()
process.on('message', ({ id, args }: Request) => {
  queue = queue.then(async () => {
    process.send!({ id, ...(await captured(args)) } satisfies Reply)
  })
})
// What was sent before the listener above was there is lost: cli.ts sends once it hears this.
process.send!('ready')
