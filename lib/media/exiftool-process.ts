import 'server-only'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { DefaultExiftoolArgs, exiftoolPath } from 'exiftool-vendored'

// ExifTool runs as `exiftool -stay_open True -@ -`, which keeps polling its argument file after EOF: when the server
// dies without ending it (SIGKILL, the OOM killer) it never notices, and runs on for good, one more each restart.
// On Linux the kernel can signal a process when its parent dies (PR_SET_PDEATHSIG). Node cannot set that on a
// child, but util-linux's setpriv can: it sets it, then execs ExifTool in its own place, so the process (and the pid
// exiftool-vendored manages) is ExifTool itself. The parent is the thread that spawned it, Node's main thread, which
// lives as long as the server. (A server killed in the microseconds between fork and prctl still leaves one behind.)
const SETPRIV = '/usr/bin/setpriv'
// The interpreter the vendored script names (`#!/usr/bin/perl`), which exiftool-vendored uses when it exists.
const PERL = '/usr/bin/perl'

/**
 * Whether setpriv can give a child the parent-death signal here: Linux, util-linux 2.33 or newer (which has
 * --pdeathsig), and the Perl the script names. Tried once, by running Perl through it.
 */
function canSetDeathSignal(): boolean {
  if (process.platform !== 'linux') return false
  const probe = spawnSync(SETPRIV, ['--pdeathsig', 'KILL', '--', PERL, '-e', '0'], { stdio: 'ignore', timeout: 10_000 })
  return probe.status === 0
}

/**
 * How ExifTool is started: through setpriv where it can set the parent-death signal, killing ExifTool with the
 * server; elsewhere undefined, exiftool-vendored's own way (then ExifTool outlives a server killed outright, as
 * before).
 */
export function exiftoolProcessFactory(): (() => Promise<ChildProcess>) | undefined {
  if (!canSetDeathSignal()) return undefined
  return async () => {
    // The environment exiftool-vendored gives its children: a fixed locale, and EXIFTOOL_HOME if set.
    // (NODE_ENV only because Next.js's types require it of an environment; ExifTool has no use for it.)
    const env: NodeJS.ProcessEnv = { NODE_ENV: process.env.NODE_ENV, LANG: 'C' }
    if (process.env.EXIFTOOL_HOME) env.EXIFTOOL_HOME = process.env.EXIFTOOL_HOME
    return spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', PERL, await exiftoolPath(), ...DefaultExiftoolArgs], { stdio: 'pipe', env })
  }
}
