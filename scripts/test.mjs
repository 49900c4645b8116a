// `npm test`: every test of the project, then one line `N passed, M failed` summed over the runners.
//   1. the production build (its TypeScript check covers every file);
//   2. node's test runner: unit tests beside lib/, database and command-line tests in test/ (SQLite, and
//      PostgreSQL when TEST_DATABASE_URL names a local server);
//   3. Playwright: HTTP tests against the built server (e2e/), on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'

const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }
const results = 'test-results'
let passed = 0
let failed = 0

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(' ')}`)
  return spawnSync(command, args, { stdio: 'inherit', env }).status
}

function testFiles(dir) {
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
  console.log('0 passed, 1 failed')
  process.exit(1)
}

const tap = path.join(results, 'node.tap')
const nodeStatus = run(process.execPath, [
  '--conditions=react-server', '--import', 'tsx', '--test', '--test-concurrency=1',
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  '--test-reporter=tap', `--test-reporter-destination=${tap}`,
  ...['lib', 'test', 'bin'].filter((dir) => existsSync(dir)).flatMap(testFiles),
])
const tapText = existsSync(tap) ? readFileSync(tap, 'utf8') : ''
// Each failed test with its error, as TAP gives it, to repeat at the end where a truncated log still shows it.
const nodeFailures = [...tapText.matchAll(/^( *)not ok \d+ - (.*)\n\1  ---\n([\s\S]*?)\n\1  \.\.\.$/gm)]
  .filter(([, , , details]) => !/failureType: 'subtestsFailed'/.test(details))
  .map(([, , name, details]) => `✖ ${name}\n${details.split('\n').slice(0, 30).join('\n')}`)
const count = (name) => Number(tapText.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0)
passed += count('pass')
failed += count('fail') + count('cancelled')
if (nodeStatus !== 0 && count('fail') + count('cancelled') === 0) failed += 1

const json = path.join(results, 'playwright.json')
const playwrightStatus = run('npx', ['playwright', 'test'])
if (existsSync(json)) {
  const { stats } = JSON.parse(readFileSync(json, 'utf8'))
  passed += stats.expected + stats.flaky
  failed += stats.unexpected
  if (playwrightStatus !== 0 && stats.unexpected === 0) failed += 1
} else {
  failed += 1
}

if (nodeFailures.length > 0) console.log(`\nFailed in node's test runner:\n${nodeFailures.join('\n')}`)
console.log(`\n${passed} passed, ${failed} failed`)
process.exit(failed > 0 ? 1 : 0)
