#!/usr/bin/env node
// `npx places`: runs bin/cli.ts with tsx. lib/ is server code guarded by the `server-only` package, which is empty
// under the `react-server` condition, as on the server; the command line is server code too.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('./cli.ts', import.meta.url))
const { status, signal } = spawnSync(
  process.execPath,
  ['--conditions=react-server', '--import', import.meta.resolve('tsx'), cli, ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } },
)
process.exit(status ?? (signal ? 1 : 0))
