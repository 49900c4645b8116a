import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Polls `check` until it returns something other than undefined (or a promise of it), and returns that; fails with
 * `what` after `timeoutMs`. For a test that waits for a condition, rather than for a fixed time that a slow machine
 * may not keep.
 */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await sleep(25)
  }
}
