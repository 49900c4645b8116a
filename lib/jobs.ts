import 'server-only'
import { databaseNow, getDb } from './db'

// Work done every so often (emptying the Trash, sweeping old sign-in counts) runs once a period over all the
// instances that share the database, whichever of them run or die: each looks now and every quarter period, and the
// first to find the period over claims the run in one statement (job_runs); the others find it claimed. Periods are
// by the database's clock. A run that fails is tried again a period later, on whichever instance looks first.

/** Claims this period's run of `job`: true when it is this process's to do, false when one began under `periodMs` ago. */
export async function claimRun(job: string, periodMs: number): Promise<boolean> {
  const now = (await databaseNow(getDb())).getTime()
  const rows = await getDb().$queryRaw<unknown[]>`
    INSERT INTO "job_runs" ("job", "started_at") VALUES (${job}, ${now})
    ON CONFLICT ("job") DO UPDATE SET "started_at" = ${now}
    WHERE "job_runs"."started_at" <= ${now - periodMs}
    RETURNING "job"`
  return rows.length > 0
}

// One timer a job for the whole process: route handlers and instrumentation may be bundled apart.
const key = Symbol.for('places.jobs')
const shared = globalThis as { [key]?: Map<string, NodeJS.Timeout> }

/**
 * Runs `work` once a `periodMs` on one of the instances, starting now if no instance ran it in the last period;
 * `work` answers what to log, if anything. A second call for the same job does nothing.
 */
export function runPeriodically(job: string, periodMs: number, work: () => Promise<string | null>): void {
  const timers = (shared[key] ??= new Map())
  if (timers.has(job)) return
  const round = async () => {
    try {
      if (!(await claimRun(job, periodMs))) return
      const said = await work()
      if (said) console.log(`Places: ${said}`)
    } catch (error) {
      console.error(`Places: ${job} failed; it runs again in ${Math.round(periodMs / 60_000)} minutes or so:`, error)
    }
  }
  timers.set(job, setInterval(() => void round(), periodMs / 4).unref())
  void round()
}
