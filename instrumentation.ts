// Runs once when a server starts (`next start` runs it as the first request comes in, before serving it):
// instrumentation-node.ts, in the Node.js runtime. The import sits inside the test of the runtime, so that Next leaves it
// out of the Edge runtime's bundle of this file (an early return for Edge did not: a build warned of process.exit).
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') await (await import('./instrumentation-node')).startServer()
}
