import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/** The process `pid` and all its descendants (Linux: /proc/PID/task/PID/children). */
export function processTree(pid: number): number[] {
  let children: number[] = []
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    // gone meanwhile
  }
  return [pid, ...children.flatMap(processTree)]
}

/** Whether `pid` or one of its descendants has `file` (an absolute path) open now. */
export function hasOpen(pid: number, file: string): boolean {
  return processTree(pid).some((member) => {
    try {
      return readdirSync(`/proc/${member}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${member}/fd/${fd}`) === file
        } catch {
          return false // closed meanwhile
        }
      })
    } catch {
      return false // gone meanwhile
    }
  })
}
