import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'

/**
 * Runs the command line as operators do (`node bin/places.mjs …`, what `npx places` runs) with `env`; fails the
 * test unless it exits 0, showing its stderr; returns its stdout, trimmed.
 */
export function runPlaces(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const run = spawnSync(process.execPath, ['bin/places.mjs', ...args], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  assert.equal(run.status, 0, run.stderr)
  return run.stdout.trim()
}
