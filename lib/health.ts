import 'server-only'
import { getDialect } from './db'
import { getDataVersion } from './places/query'

export type Health = { status: 'ok' | 'unavailable'; database: { dialect: string; ok: boolean; dataVersion?: number } }

/** For load balancers and monitors: is the database answering? Says nothing a visitor should not know. */
export async function checkHealth(): Promise<Health> {
  const dialect = getDialect()
  try {
    return { status: 'ok', database: { dialect, ok: true, dataVersion: await getDataVersion() } }
  } catch (error) {
    console.error('health check: the database did not answer:', error)
    return { status: 'unavailable', database: { dialect, ok: false } }
  }
}
