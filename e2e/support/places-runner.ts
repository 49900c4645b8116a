// The command line of one Playwright worker and one server (places-cli.ts forks it with that server's environment):
// the commands it is sent run one after another in this process, each as bin/run.ts runs one (bin/cli.ts's `main`),
// their output captured and sent back with their exit code. A command in a process of its own spends about 0.6 s of
// CPU before its work (node, the modules, Prisma's query compiler), and the specs run some 250 of them to make their
// users, passwords and posts; test/cli runs the command line as a process of its own, as operators do.
import { main } from '../../bin/cli'

export type Request = { id: number; args: string[] }
export type Reply = { id: number; code: number; stdout: string; stderr: string }
export type Message = Reply | 'ready'

// Playwright's worker is gone: so is this.
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
    const code = await main(args)
    return { code, ...output }
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
// What was sent before the listener above was there is lost: places-cli.ts sends once it hears this.
process.send!('ready')
