import 'server-only'
import { getDialect, readDataVersion } from './db'

export type Health = { status: 'ok' | 'unavailable'; database: { dialect: string; ok: boolean; dataVersion?: number } }

/** For load balancers and monitors: is the database answering? Says nothing a visitor should not know. */
export async function checkHealth(): Promise<Health> {
  const dialect = getDialect()
  try {
    return { status: 'ok', database: { dialect, ok: true, dataVersion: await readDataVersion() } }
  } catch (error) {
    console.error('health check: the database did not answer:', error)
    return { status: 'unavailable', database: { dialect, ok: false } }
  }
}
