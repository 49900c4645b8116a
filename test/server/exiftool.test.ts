import assert from 'node:assert/strict'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { runPlaces } from '../support/cli'
import { createTestDatabase, type TestDatabase } from '../support/databases'
import { startServer, type RunningServer } from '../support/server'
import { waitFor } from '../support/wait'

// ExifTool runs beside the server as a long-lived child (`exiftool -stay_open True -@ -`) that never notices its
// parent is gone: a server killed outright must not leave it running (lib/media/exiftool-process.ts).

type Proc = { pid: number; ppid: number; state: string; cmdline: string }

/** Every process, from /proc. */
function processes(): Proc[] {
  const found: Proc[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The command name (in parentheses) may hold spaces: the fields that follow it are read from its end.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()
      found.push({ pid: Number(entry), ppid: Number(ppid), state: state!, cmdline })
    } catch {
      // gone meanwhile
    }
  }
  return found
}

function descendantsOf(pid: number): Proc[] {
  const all = processes()
  const found: Proc[] = []
  const parents = new Set([pid])
  for (let grew = true; grew;) {
    grew = false
    for (const proc of all) {
      if (parents.has(proc.ppid) && !parents.has(proc.pid)) {
        parents.add(proc.pid)
        found.push(proc)
        grew = true
      }
    }
  }
  return found
}

/** Running, as opposed to gone or a zombie waiting to be reaped (a container's init may never reap it). */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

describe('ExifTool and a server killed outright', { skip: process.platform !== 'linux' && 'reads /proc; the parent-death signal is Linux only' }, () => {
  let db: TestDatabase
  let server: RunningServer
  let exiftoolPid: number | undefined

  before(async () => {
    db = await createTestDatabase('sqlite')
    const dir = path.dirname(db.url.slice('file:'.length))
    const env = { ...process.env, DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, 'uploads') }
    const places = (...args: string[]) => runPlaces(env, ...args)
    await places('user', 'create', '--email', 'exiftool@example.org', '--password', 'long enough', '--role', 'editor')
    const secret = (await places('app-password', 'create', '--user', 'exiftool@example.org')).split('\n').at(-1)!
    const file = path.join(dir, 'post.geojson')
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { title: 'Photos' } }] }))
    const postId = await places('import', file, '--author', 'exiftool@example.org')
    server = await startServer({ DATABASE_URL: db.url, UPLOADS_DIR: env.UPLOADS_DIR })
    // An upload has its copy stripped of metadata by ExifTool, which starts it.
    const uploaded = await fetch(`${server.url}/places/v1/media?post=${postId}`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`exiftool@example.org:${secret}`).toString('base64')}`,
        'Content-Disposition': 'attachment; filename="photo.jpg"',
      },
      body: readFileSync(path.join('test', 'fixtures', 'exif', 'gox_gps.jpg')),
    })
    assert.equal(uploaded.status, 201, await uploaded.text())
  })
  after(async () => {
    // Should the test fail, the ExifTool it found is not left behind by the test itself.
    if (exiftoolPid !== undefined && isRunning(exiftoolPid)) process.kill(exiftoolPid, 'SIGKILL')
    await server.stop()
    await db.drop()
  })

  test('SIGKILL of the server: its ExifTool exits within a few seconds', async () => {
    const exiftools = descendantsOf(server.process.pid!).filter((proc) => /exiftool/.test(proc.cmdline) && /-stay_open/.test(proc.cmdline))
    assert.equal(exiftools.length, 1, `one ExifTool under the server: ${JSON.stringify(descendantsOf(server.process.pid!))}`)
    exiftoolPid = exiftools[0]!.pid
    const exited = new Promise((resolve) => server.process.once('exit', resolve))
    server.process.kill('SIGKILL')
    await exited
    const pid = exiftoolPid
    await waitFor('ExifTool to exit', () => (isRunning(pid) ? undefined : true), 5_000).catch(() => undefined)
    assert.equal(isRunning(pid), false, `ExifTool (pid ${pid}) outlived its server: ${exiftools[0]!.cmdline}`)
  })
})
