import 'server-only'
import { getDialect, readDataVersion } from './db'

export type Health = { status: 'ok' | 'unavailable'; database: { dialect: string; ok: boolean } }

/** For load balancers and monitors: is the database answering? Says nothing a visitor should not know. */
export async function checkHealth(): Promise<Health> {
  const dialect = getDialect()
  try {
    // The version is read to prove the database answers; it is not shown (a count of writes, drafts included).
    await readDataVersion()
    return { status: 'ok', database: { dialect, ok: true } }
  } catch (error) {
    console.error('health check: the database did not answer:', error)
    return { status: 'unavailable', database: { dialect, ok: false } }
  }
}
