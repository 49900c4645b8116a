// `npm test [TIER …]`: the tests of the tiers named, or of every tier, then the 20 slowest tests and one line
// `N passed, M failed, K skipped` summed over the runners, after a list of what was skipped and why (tests that
// skipped themselves, and suites this machine cannot run). The tiers (README, "Tests"):
//   unit  node's test runner over the tests beside lib/ and bin/: no build, no database server;
//   db    the database, command-line, import and media tests in test/ (SQLite, and PostgreSQL when
//         TEST_DATABASE_URL names a local server), and the few that start the built server;
//   soak  load, fuzz, keep-alive, nginx and the large imports;
//   e2e   Playwright: HTTP tests against the built server (e2e/), on SQLite and, with TEST_DATABASE_URL, PostgreSQL,
//         and the browser tests in Chromium.
// Every tier but unit runs the production build first (its TypeScript check covers every file).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

// Every test's scratch files go to a folder of this run's own, which must hold nothing of the project's at the end:
// a test that leaves its `places-…` folder behind fails the run (browsers and tools may leave their own caches).
const scratch = mkdtempSync(path.join(tmpdir(), 'places-npm-test-'))
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', TMPDIR: scratch }
const results = 'test-results'
let passed = 0
let failed = 0
/** What did not run, and why: one line each. */
const skipped: string[] = []
// Suites that register only where they can run: said here, so that a green run never hides them.
if (!process.env.TEST_DATABASE_URL) {
  skipped.push('suite: every database, command-line and HTTP test on PostgreSQL (test/, e2e api-postgres) and e2e/instances: TEST_DATABASE_URL is not set')
}

function run(command: string, args: string[]): number | null {
  console.log(`\n$ ${command} ${args.join(' ')}`)
  return spawnSync(command, args, { stdio: 'inherit', env }).status
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'generated' ? [] : testFiles(full)
    return /\.test\.ts$/.test(entry.name) ? [full] : []
  })
}

const TIERS = ['unit', 'db', 'soak', 'e2e'] as const
type Tier = (typeof TIERS)[number]
const asked = process.argv.slice(2)
const unknown = asked.filter((tier) => !(TIERS as readonly string[]).includes(tier))
if (unknown.length > 0) {
  console.error(`npm test: no tier ${unknown.join(', ')}; the tiers are ${TIERS.join(', ')} (none named runs all of them)`)
  process.exit(2)
}
const tiers = new Set<Tier>(asked.length > 0 ? (asked as Tier[]) : TIERS)

/** The soak tier's files: long runs of mixed traffic, mutated files, idle connections, the HTTP cache, large imports. */
const SOAK = [
  'test/server/load.test.ts',
  'test/media/fuzz.test.ts',
  'test/server/keep-alive.test.ts',
  'test/server/nginx.test.ts',
  'test/cli/bulk-import.test.ts',
]
function tierOf(file: string): Tier {
  if (SOAK.includes(file.split(path.sep).join('/'))) return 'soak'
  return file.startsWith(`test${path.sep}`) ? 'db' : 'unit'
}

rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

if ([...tiers].some((tier) => tier !== 'unit') && run('npx', ['next', 'build']) !== 0) {
  console.log('\nThe build failed; no test ran.')
  rmSync(scratch, { recursive: true, force: true })
  console.log('0 passed, 1 failed')
  process.exit(1)
}

const nodeFiles = ['lib', 'test', 'bin']
  .filter((dir) => existsSync(dir))
  .flatMap(testFiles)
  .filter((file) => tiers.has(tierOf(file)))
// Two files at a time: a test waiting for a command or a server leaves a core idle. The soak tier's files run alone
// after them, as does the command line's bundle test, which removes the bundle every other command runs.
const SERIAL = [...SOAK, 'test/cli/bundle.test.ts']
const serial = (file: string) => SERIAL.includes(file.split(path.sep).join('/'))
const nodeRuns = [
  { name: 'node', files: nodeFiles.filter((file) => !serial(file)), concurrency: 2 },
  { name: 'node-serial', files: nodeFiles.filter(serial), concurrency: 1 },
].filter((nodeRun) => nodeRun.files.length > 0)
/** Every test's time, for the list of the slowest: `runner: where › name`. */
const timings: { name: string; ms: number }[] = []
const nodeFailures: string[] = []
for (const { name, files, concurrency } of nodeRuns) {
  const tap = path.join(results, `${name}.tap`)
  const nodeTimings = path.join(results, `${name}-timings.jsonl`)
  const nodeStatus = run(process.execPath, [
    '--conditions=react-server',
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    '--test-reporter=./scripts/test-timings.mjs',
    `--test-reporter-destination=${nodeTimings}`,
    ...files,
  ])
  const tapText = existsSync(tap) ? readFileSync(tap, 'utf8') : ''
  // Each failed test with its error, as TAP gives it, to repeat at the end where a truncated log still shows it.
  nodeFailures.push(
    ...[...tapText.matchAll(/^( *)not ok \d+ - (.*)\n\1  ---\n([\s\S]*?)\n\1  \.\.\.$/gm)]
      .filter(([, , , details = '']) => !/failureType: 'subtestsFailed'/.test(details))
      .map(([, , name, details = '']) => `✖ ${name}\n${details.split('\n').slice(0, 30).join('\n')}`),
  )
  const count = (name: string) => Number(tapText.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0)
  passed += count('pass')
  failed += count('fail') + count('cancelled')
  for (const [, name, reason] of tapText.matchAll(/^ *ok \d+ - (.*?) # SKIP ?(.*)$/gm)) skipped.push(`node: ${name}: ${reason || 'skipped'}`)
  if (nodeStatus !== 0 && count('fail') + count('cancelled') === 0) failed += 1
  for (const line of existsSync(nodeTimings) ? readFileSync(nodeTimings, 'utf8').split('\n').filter(Boolean) : []) {
    const { file, name, ms } = JSON.parse(line) as { file?: string; name: string; ms: number }
    timings.push({ name: `node ${file ? path.relative(process.cwd(), file) : '?'} › ${name}`, ms })
  }
}
if (tiers.has('e2e')) {
  const json = path.join(results, 'playwright.json')
  const playwrightStatus = run('npx', ['playwright', 'test'])
  if (existsSync(json)) {
    const report = JSON.parse(readFileSync(json, 'utf8')) as PlaywrightReport
    const { stats } = report
    passed += stats.expected + stats.flaky
    failed += stats.unexpected
    skipped.push(...playwrightSkips(report))
    timings.push(...playwrightTimings(report))
    if (playwrightStatus !== 0 && stats.unexpected === 0) failed += 1
  } else {
    failed += 1
  }
}

const leftBehind = readdirSync(scratch).filter((name) => name.startsWith('places-'))
if (leftBehind.length > 0) {
  console.log(`\nLeft behind in the temporary folder by a test (each should remove what it made): ${leftBehind.join(', ')}`)
  failed += 1
}
rmSync(scratch, { recursive: true, force: true })

const slowest = timings.sort((a, b) => b.ms - a.ms).slice(0, 20)
if (slowest.length > 0) console.log(`\nThe 20 slowest tests:\n${slowest.map(({ name, ms }) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${name}`).join('\n')}`)
if (nodeFailures.length > 0) console.log(`\nFailed in node's test runner:\n${nodeFailures.join('\n')}`)
if (skipped.length > 0) console.log(`\nSkipped:\n${skipped.map((line) => `- ${line}`).join('\n')}`)
const skippedTests = skipped.filter((line) => !line.startsWith('suite: ')).length
console.log(`\n${passed} passed, ${failed} failed, ${skippedTests} skipped`)
process.exit(failed > 0 ? 1 : 0)

/** The parts of Playwright's JSON report read here. */
type PlaywrightSuite = {
  specs?: {
    file: string
    title: string
    tests?: { status: string; projectName: string; annotations?: { type: string; description?: string }[]; results?: { duration: number }[] }[]
  }[]
  suites?: PlaywrightSuite[]
}
type PlaywrightReport = { stats: { expected: number; flaky: number; unexpected: number }; suites?: PlaywrightSuite[] }

/** Playwright's skipped tests with their reasons (a test.skip annotation), from its JSON report. */
function playwrightSkips(report: PlaywrightReport): string[] {
  const lines: string[] = []
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const run of spec.tests ?? []) {
        if (run.status !== 'skipped') continue
        const reason = run.annotations?.find((a) => a.type === 'skip')?.description
        lines.push(`playwright [${run.projectName}] ${spec.file}: ${spec.title}: ${reason || 'skipped'}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  return lines
}

/** Each of Playwright's tests with the time of its runs (retries included). */
function playwrightTimings(report: PlaywrightReport): { name: string; ms: number }[] {
  const found: { name: string; ms: number }[] = []
  const walk = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const run of spec.tests ?? []) {
        const ms = (run.results ?? []).reduce((sum, result) => sum + result.duration, 0)
        found.push({ name: `playwright [${run.projectName}] ${spec.file} › ${spec.title}`, ms })
      }
    }
    for (const child of suite.suites ?? []) walk(child)
  }
  for (const suite of report.suites ?? []) walk(suite)
  return found
}
