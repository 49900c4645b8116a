// What a short-lived process (the command line) must close before it exits, registered by the module that opened
// it: so the command line closes what its command opened, and loads no module only to close what it never opened.
const closers = new Set<() => Promise<void>>()

/** Registers `close` to run before the process exits (once, however often it is registered). */
export function closeBeforeExit(close: () => Promise<void>): void {
  closers.add(close)
}

/** Runs every close registered, side by side. */
export async function closeAll(): Promise<void> {
  const all = [...closers]
  closers.clear()
  await Promise.all(all.map((close) => close()))
}
