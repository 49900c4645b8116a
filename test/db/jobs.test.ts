import assert from 'node:assert/strict'
import { test } from 'node:test'
import { getDb } from '../../lib/db'
import { claimRun, runPeriodically } from '../../lib/jobs'
import { migratedDatabaseOfThisRun } from '../support/databases'
import { waitFor } from '../support/wait'

// Periodic work (lib/jobs.ts) runs once a period over all the processes that share a database: a run is claimed in
// one statement, so of claims at once exactly one wins, and none until the period is over.

// lib/ reads its configuration once per process: this file runs on SQLite, then itself again on PostgreSQL.
migratedDatabaseOfThisRun(import.meta.url)

const HOUR = 3_600_000
/** Moves the last run of `job` back by `ms`, as the passing of time would. */
const age = (job: string, ms: number) => getDb().$executeRaw`UPDATE "job_runs" SET "started_at" = "started_at" - ${ms} WHERE "job" = ${job}`

test('of twenty claims at once exactly one wins; none until the period is over, then one again', async () => {
  const first = await Promise.all(Array.from({ length: 20 }, () => claimRun('sweep', HOUR)))
  assert.equal(first.filter(Boolean).length, 1)
  assert.equal(await claimRun('sweep', HOUR), false, 'within the period')
  assert.equal(await claimRun('other', HOUR), true, 'each job has its own period')
  await age('sweep', HOUR - 60_000)
  assert.equal(await claimRun('sweep', HOUR), false, 'a minute before its end')
  await age('sweep', 60_000)
  const again = await Promise.all(Array.from({ length: 20 }, () => claimRun('sweep', HOUR)))
  assert.equal(again.filter(Boolean).length, 1, 'once the period is over')
})

test('a job runs at once where none ran in the period, once: another process finds the run claimed; it logs what it says', async (t) => {
  const logged = t.mock.method(console, 'log', () => {})
  let runs = 0
  const count = (said: string | null) => () => {
    runs++
    return Promise.resolve(said)
  }
  runPeriodically('count', HOUR, count('counted'))
  await waitFor('the first run', () => (runs === 1 ? true : undefined))
  // What a second process would do: its claim finds this period's run taken.
  assert.equal(await claimRun('count', HOUR), false)
  runPeriodically('count', HOUR, count(null))
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.equal(runs, 1, 'a second start in one process does nothing')
  assert.deepEqual(
    logged.mock.calls.map((call) => call.arguments),
    [['Places: counted']],
  )
})
