#!/usr/bin/env node
// `npx places`: runs bin/cli.ts with tsx. lib/ is server code guarded by the `server-only` package, which is empty
// under the `react-server` condition, as on the server; the command line is server code too.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
const child = spawn(
  process.execPath,
  ['--conditions=react-server', '--import', import.meta.resolve('tsx'), cli, ...process.argv.slice(2)],
  // The IPC channel closes when this process dies, however it dies: the command then stops too (bin/cli.ts), and
  // its open transaction is rolled back, rather than going on unseen.
  { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } },
)
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 1)))
