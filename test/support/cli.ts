import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'

/**
 * Runs the command line as operators do (`node bin/places.mjs …`, what `npx places` runs) with `env`; fails the
 * test unless it exits 0, showing its stderr; returns its stdout, trimmed.
 */
export function runPlaces(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const run = spawnSync(process.execPath, ['bin/places.mjs', ...args], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  assert.equal(run.status, 0, run.stderr)
  return run.stdout.trim()
}

/**
 * runPlaces for tests that talk to a server meanwhile: it leaves the event loop free. A loop held by spawnSync
 * cannot see a kept-alive connection closed by the server (after its advertised 5 s), and fetch then reuses it and
 * fails with "other side closed".
 */
export async function runPlacesAsync(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['bin/places.mjs', ...args], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
  return stdout.trim()
}
