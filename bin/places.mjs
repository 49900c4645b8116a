#!/usr/bin/env node
// `npx places`: bin/run.ts (one command of bin/cli.ts) and the lib/ it imports, bundled by esbuild into one module
// (packages stay in node_modules), run in a child node. Not run through tsx: tsx's module hooks live in a thread of their own, some
// 30 MB of every command's memory, an import's included (docs/cli.md, "How an import runs"). lib/ is server code
// guarded by the `server-only` package, which is empty under the `react-server` condition, as on the server; the
// command line is server code too.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// esbuild's version from its package.json: its module, some 40 ms of a command's start, is loaded only to bundle.
const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version

const root = fileURLToPath(new URL('..', import.meta.url))

/** Each module keeps its own address: `new URL('./x.worker.mjs', import.meta.url)` still finds the file beside it. */
const ownAddresses = {
  name: 'own-addresses',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }))
  },
}

const cache = path.join(root, 'node_modules', '.cache', 'places')
// What the last bundle was made from: each input file and its folder (a file added there may be found instead), this
// launcher, the settings esbuild reads and its version. While none of them changed, the bundle is run as it is (a test
// suite calls the command line hundreds of times; bundling takes half a second). A file is known by its inode, size
// and change time, which no copy or checkout can keep as it was.
const manifest = path.join(cache, `inputs-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`)
const settings = [fileURLToPath(import.meta.url), path.join(root, 'tsconfig.json'), path.join(root, 'package.json')]
const file = (await reusableBundle()) ?? (await bundle())

/** The bundle of the last build when every one of its inputs is as it was then, else undefined. */
async function reusableBundle() {
  const last = await readFile(manifest, 'utf8').then(JSON.parse, () => undefined)
  if (!last || last.esbuild !== esbuildVersion || !(await stat(last.bundle).catch(() => undefined))) return undefined
  const now = await Promise.all(last.inputs.map(([input]) => signature(input)))
  return now.every((entry, i) => entry?.[1] === last.inputs[i][1]) ? last.bundle : undefined
}

/** [path, its inode, size and change time in nanoseconds]; undefined for a file gone. */
async function signature(input) {
  const stats = await stat(input, { bigint: true }).catch(() => undefined)
  return stats && [input, `${stats.ino}:${stats.size}:${stats.ctimeNs}`]
}

/**
 * Bundles bin/run.ts, writes the bundle where its packages resolve, and records its inputs. Each command's modules are
 * a chunk of their own, loaded when it runs (bin/cli.ts): `places --help` loads no database driver or image library.
 */
async function bundle() {
  const started = Date.now()
  const esbuild = await import('esbuild')
  const { outputFiles, metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { cli: path.join(root, 'bin', 'run.ts') },
    bundle: true,
    splitting: true,
    outdir: 'bundle',
    outExtension: { '.js': '.mjs' },
    chunkNames: '[name]-[hash]',
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['react-server'],
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [ownAddresses],
  })
  await esbuild.stop()
  const files = Object.keys(metafile.inputs).map((input) => path.resolve(root, input))
  const inputs = await Promise.all([...new Set([...settings, ...files, ...files.map((input) => path.dirname(input))])].map(signature))
  // Written once per version of the code, to a folder renamed into place whole: commands run side by side write the
  // same bytes. The bundles of earlier versions go, and the partial folders of commands that died while writing theirs:
  // a partial bears its writer's process id (and a suffix of its own, as a writer in another PID namespace, sharing
  // node_modules, may have the same id), and one whose writer does not run and that has not been written to for a
  // minute goes (such a writer looks dead but writes its few hundred KB in well under that).
  const hash = createHash('sha256')
  for (const output of outputFiles) hash.update(output.path).update(output.contents)
  const folder = path.join(cache, `cli-${hash.digest('hex').slice(0, 16)}`)
  await mkdir(cache, { recursive: true })
  if (!(await stat(folder).catch(() => undefined))) {
    const partial = await mkdtemp(`${folder}.${process.pid}.`)
    for (const output of outputFiles) await writeFile(path.join(partial, path.basename(output.path)), output.contents)
    await rename(partial, folder).catch(async (error) => {
      // Another command put the same bundle in place first.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
      await rm(partial, { recursive: true, force: true })
    })
    for (const name of await readdir(cache)) {
      const match = /^cli-[0-9a-f]+(?:\.mjs)?(?:\.(\d+)(?:\.\w+)?)?$/.exec(name)
      if (!match || name === path.basename(folder)) continue
      const writer = match[1] // a partial's
      if (writer === undefined || !(running(Number(writer)) || (await modifiedWithin(path.join(cache, name), 60_000))))
        await rm(path.join(cache, name), { recursive: true, force: true })
    }
  }
  const file = path.join(folder, 'cli.mjs')
  // A file changed while it was bundled may be in the bundle as it was before: then no record, and the next command
  // bundles again.
  if (inputs.every((input) => input !== undefined && Number(BigInt(input[1].split(':')[2]) / 1_000_000n) < started - 1000)) {
    const partial = `${manifest}.${process.pid}`
    await writeFile(partial, JSON.stringify({ bundle: file, esbuild: esbuildVersion, inputs }))
    await rename(partial, manifest)
  }
  return file
}

/** Whether `file` was written to in the last `ms` (a file already gone was not). */
async function modifiedWithin(file, ms) {
  const stats = await stat(file).catch(() => undefined)
  return stats !== undefined && Date.now() - stats.mtimeMs < ms
}

/** Whether a process of this id runs (signal 0 tests it without sending anything). */
function running(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

// A command's heap kept nearer what it holds: V8 would let its young generation grow to 32 MB, and its old one to
// several times what was alive at the last full collection. And WebAssembly compiled once, by the baseline compiler:
// V8 would compile Prisma's query compiler (a WebAssembly module of some 3 MB) again with its optimizing one, some
// 40 MB of memory for queries a command sends a few of (were the baseline compiler to refuse a function, V8 would stop
// the command rather than compile it otherwise: none of Prisma's does, and every test of the command line runs so).
// An import of 1,000,000 places peaked at 416–433 MB bundled without these flags, 300–371 MB with the first two,
// 292–295 MB with all three (BENCHMARKS.md).
const heap = ['--max-semi-space-size=8', '--heap-growing-percent=50', '--liftoff-only']
const child = spawn(process.execPath, ['--conditions=react-server', ...heap, file, ...process.argv.slice(2)], {
  // The IPC channel closes when this process dies, however it dies: the command then stops too (bin/run.ts), and
  // its open transaction is rolled back, rather than going on unseen.
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
})
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 + 15 : 1)))
