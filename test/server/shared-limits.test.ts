import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import { ClientAt, type Attempt } from '../../e2e/support/sign-in-from'
import { runPlaces } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { startServer, type RunningServer } from '../support/server'

// Two servers over one database, as two machines behind a balancer: the sign-in limits (lib/auth/throttle.ts,
// client-limit.ts) are the database's, so failures sent to either are counted together, and a server started
// again forgives none of them. Each client sends from a 127.0.0.N of its own (e2e/support/sign-in-from.ts).

const OWNER = { email: 'owner@example.org', password: 'the right password' }

/** Seconds of a refusal's Retry-After, after checking it is one. */
function retryAfter(attempt: Attempt, what: string): number {
  assert.equal(attempt.status, 429, `${what}: ${attempt.status} ${attempt.text.slice(0, 200)}`)
  assert.match(attempt.error ?? '', /^Too many failed sign-ins\./, what)
  return Number(attempt.headers['retry-after'])
}

/** A wrong password that is counted: an attempt held for a wait is tried again once the wait is over. */
async function failOnce(client: ClientAt, email = OWNER.email): Promise<void> {
  for (;;) {
    const attempt = await client.signIn(email, 'a wrong password')
    if (attempt.status !== 429) {
      assert.equal(attempt.status, 401, attempt.text.slice(0, 200))
      assert.equal(attempt.ok, false)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, retryAfter(attempt, 'held') * 1000))
  }
}

for (const kind of databaseKinds) {
  describe(`sign-in limits shared by two servers (${kind})`, () => {
    let db: TestDatabase
    let dir: string
    let a: RunningServer
    let b: RunningServer
    const serverEnv = (name: string) => ({ DATABASE_URL: db.url, UPLOADS_DIR: path.join(dir, name) })

    before(async () => {
      db = await createTestDatabase(kind)
      dir = mkdtempSync(path.join(tmpdir(), 'places-limits-test-'))
      await runPlaces({ ...process.env, ...serverEnv('cli') }, 'user', 'create', '--email', OWNER.email, '--password', OWNER.password, '--role', 'author')
      ;[a, b] = await Promise.all([startServer(serverEnv('a')), startServer(serverEnv('b'))])
    })

    after(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await db?.drop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    test('failures sent to either server are counted together; a server started again forgives none', async () => {
      const [toA, toB] = [new ClientAt(a.url, '127.0.0.51'), new ClientAt(b.url, '127.0.0.52')]
      // Six alternated: three free and three more, after which an attempt waits 8 s. Each server counting its own
      // would have seen three, all free, and let the right password in.
      for (let i = 0; i < 6; i++) await failOnce(i % 2 === 0 ? toA : toB)
      const held = retryAfter(await toA.signIn(OWNER.email, OWNER.password), 'the right password through A, at once')
      assert.ok(held >= 1 && held <= 8, `Retry-After ${held}`)

      await a.stop()
      a = await startServer(serverEnv('a'))
      const again = new ClientAt(a.url, '127.0.0.53')
      await failOnce(again) // the seventh: 16 s to wait after it, not the nothing of a first failure
      const longer = retryAfter(await toB.signIn(OWNER.email, OWNER.password), 'the right password through B after the restart')
      assert.ok(longer > 8 && longer <= 16, `Retry-After ${longer}`)
    })

    test("one address's budget of failures is spent through both servers", async () => {
      const clients = [new ClientAt(a.url, '127.0.0.61'), new ClientAt(b.url, '127.0.0.61')]
      // Wrong passwords of ever-new accounts, so that no account's count holds them, alternated until the address
      // is held: 30, and one more for every 10 s they took. Two budgets of 30 would have let 60 through.
      const start = Date.now()
      let through = 0
      for (;;) {
        const attempt = await clients[through % 2]!.signIn(`nobody-${through}@example.org`, 'a wrong password')
        if (attempt.status === 429) {
          const held = retryAfter(attempt, `after ${through}`)
          assert.ok(held >= 1 && held <= 10, `Retry-After ${held}`)
          break
        }
        assert.equal(attempt.status, 401, attempt.text.slice(0, 200))
        assert.ok(++through < 60, 'never held')
      }
      const refills = Math.floor((Date.now() - start) / 10_000)
      assert.ok(through >= 30 && through <= 30 + refills, `${through} let through in ${Date.now() - start} ms`)
    })
  })
}
