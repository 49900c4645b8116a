import 'server-only'
import { databaseNow, getDb, transaction, tryLockJob } from '../db'

// Scheduled posts go live at their time (WordPress's cron does it with publish_future_post): one timer per server
// process, started from instrumentation.ts. It publishes what is due at start (a server that was down catches up), then
// sleeps until the next post is due, but never more than MAX_SLEEP_MS, so that posts scheduled meanwhile by another
// process (a second instance, the CLI) and jumps of the clock are seen within a minute. Due is by the database's clock,
// and one process at a time runs a round (an advisory lock on PostgreSQL): instances on one database publish each
// post once, in one write, whose triggers bump the data version as any write's do.

const MAX_SLEEP_MS = 60_000

/** Publishes the scheduled posts whose time has come; returns how many (0 when another process is doing it). */
export async function publishDuePosts(): Promise<number> {
  return transaction(async (tx) => {
    if (!(await tryLockJob(tx, 'publish-scheduled-posts'))) return 0
    const due = { status: 'future', publishedAt: { lte: await databaseNow(tx) } }
    // Read before writing: on PostgreSQL an UPDATE that changes no row still fires the statement trigger, and a bumped
    // data version every minute would empty every public cache.
    if ((await tx.post.count({ where: due })) === 0) return 0
    return (await tx.post.updateMany({ where: due, data: { status: 'publish' } })).count
  })
}

/** Milliseconds until the next scheduled post is due by the database's clock (0 if one is due now), capped at MAX_SLEEP_MS. */
async function sleepBeforeNext(): Promise<number> {
  const db = getDb()
  const next = await db.post.findFirst({ where: { status: 'future' }, orderBy: { publishedAt: 'asc' }, select: { publishedAt: true } })
  if (!next) return MAX_SLEEP_MS
  return Math.min(MAX_SLEEP_MS, Math.max(0, next.publishedAt.getTime() - (await databaseNow(db)).getTime()))
}

type SchedulerState = { tick: () => void; timer?: NodeJS.Timeout }
const key = Symbol.for('places.scheduler')
const scheduler = globalThis as { [key]?: SchedulerState }

/** Starts the publishing timer of this process, once (a second call does nothing). */
export function startScheduler(): void {
  if (scheduler[key]) return
  let running = false
  // A wake-up during a round (a post scheduled as this one read the next due date) makes another round at its end.
  let again = false
  const state: SchedulerState = {
    tick: () => {
      if (running) {
        again = true
        return
      }
      running = true
      again = false
      clearTimeout(state.timer)
      void (async () => {
        let sleep = MAX_SLEEP_MS
        try {
          const published = await publishDuePosts()
          if (published > 0) console.log(`Places: published ${published} scheduled post${published === 1 ? '' : 's'}`)
          sleep = await sleepBeforeNext()
        } catch (error) {
          console.error('Places: publishing scheduled posts failed; trying again in a minute:', error)
        }
        running = false
        // A post due now was published above; one due within the same moment is caught on the next round.
        state.timer = setTimeout(state.tick, again ? 0 : Math.max(sleep, 50)).unref()
      })()
    },
  }
  scheduler[key] = state
  state.tick()
}

/** Looks again at what is scheduled, now: this process has just scheduled a post, perhaps before the next wake-up. */
export function rescheduleNow(): void {
  scheduler[key]?.tick()
}
