// `npm test`: every test of the project, then one line `N passed, M failed, K skipped` summed over the runners,
// after a list of what was skipped and why (tests that skipped themselves, and suites this machine cannot run).
//   1. the production build (its TypeScript check covers every file);
//   2. node's test runner: unit tests beside lib/, database and command-line tests in test/ (SQLite, and
//      PostgreSQL when TEST_DATABASE_URL names a local server);
//   3. Playwright: HTTP tests against the built server (e2e/), on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
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

rmSync(results, { recursive: true, force: true })
mkdirSync(results, { recursive: true })

if (run('npx', ['next', 'build']) !== 0) {
  console.log('\nThe build failed; no test ran.')
  rmSync(scratch, { recursive: true, force: true })
  console.log('0 passed, 1 failed')
  process.exit(1)
}

const tap = path.join(results, 'node.tap')
const nodeStatus = run(process.execPath, [
  '--conditions=react-server',
  '--import',
  'tsx',
  '--test',
  '--test-concurrency=1',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tap}`,
  ...['lib', 'test', 'bin'].filter((dir) => existsSync(dir)).flatMap(testFiles),
])
const tapText = existsSync(tap) ? readFileSync(tap, 'utf8') : ''
// Each failed test with its error, as TAP gives it, to repeat at the end where a truncated log still shows it.
const nodeFailures = [...tapText.matchAll(/^( *)not ok \d+ - (.*)\n\1  ---\n([\s\S]*?)\n\1  \.\.\.$/gm)]
  .filter(([, , , details = '']) => !/failureType: 'subtestsFailed'/.test(details))
  .map(([, , name, details = '']) => `✖ ${name}\n${details.split('\n').slice(0, 30).join('\n')}`)
const count = (name: string) => Number(tapText.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0)
passed += count('pass')
failed += count('fail') + count('cancelled')
for (const [, name, reason] of tapText.matchAll(/^ *ok \d+ - (.*?) # SKIP ?(.*)$/gm)) skipped.push(`node: ${name}: ${reason || 'skipped'}`)
if (nodeStatus !== 0 && count('fail') + count('cancelled') === 0) failed += 1

const json = path.join(results, 'playwright.json')
const playwrightStatus = run('npx', ['playwright', 'test'])
if (existsSync(json)) {
  const report = JSON.parse(readFileSync(json, 'utf8')) as PlaywrightReport
  const { stats } = report
  passed += stats.expected + stats.flaky
  failed += stats.unexpected
  skipped.push(...playwrightSkips(report))
  if (playwrightStatus !== 0 && stats.unexpected === 0) failed += 1
} else {
  failed += 1
}

const leftBehind = readdirSync(scratch).filter((name) => name.startsWith('places-'))
if (leftBehind.length > 0) {
  console.log(`\nLeft behind in the temporary folder by a test (each should remove what it made): ${leftBehind.join(', ')}`)
  failed += 1
}
rmSync(scratch, { recursive: true, force: true })

if (nodeFailures.length > 0) console.log(`\nFailed in node's test runner:\n${nodeFailures.join('\n')}`)
if (skipped.length > 0) console.log(`\nSkipped:\n${skipped.map((line) => `- ${line}`).join('\n')}`)
const skippedTests = skipped.filter((line) => !line.startsWith('suite: ')).length
console.log(`\n${passed} passed, ${failed} failed, ${skippedTests} skipped`)
process.exit(failed > 0 ? 1 : 0)

/** The parts of Playwright's JSON report read here. */
type PlaywrightSuite = {
  specs?: { file: string; title: string; tests?: { status: string; projectName: string; annotations?: { type: string; description?: string }[] }[] }[]
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
