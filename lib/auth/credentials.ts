import 'server-only'
import { getServerSession } from 'next-auth'
import type { Actor } from './capabilities'
import { getConfig } from '../config'
import { getDb } from '../db'
import { invalidCredentials } from '../http/errors'
import { hashAppPassword } from './app-passwords'
import { getAuthOptions } from './config'
import { decodeBasicCredentials } from './limits'

const LAST_USED_PRECISION_MS = 60_000

/**
 * Who is calling: a program with HTTP Basic `email:application-password` (as WordPress's Application Passwords),
 * or a browser with its session cookie; null for an anonymous caller. The role is read from the database on every
 * request, so a demoted or deleted user loses rights at once, and an ended session is anonymous. Wrong Basic credentials are a 401, never anonymous.
 */
export async function authenticate(request: Request): Promise<Actor | null> {
  const header = request.headers.get('authorization')
  if (header && /^basic /i.test(header)) return authenticateBasic(header.slice(6).trim())
  // A cookie rides along with requests other sites make; writes count it only from this site's own pages.
  if (!['GET', 'HEAD'].includes(request.method) && !isSameOrigin(request)) return null
  // The session's user, as the database has them now (lib/auth/sessions.ts).
  const user = (await getServerSession(getAuthOptions()))?.user
  return user ? { id: user.id, role: user.role } : null
}

async function authenticateBasic(encoded: string): Promise<Actor> {
  const credentials = decodeBasicCredentials(encoded)
  if (!credentials) throw invalidCredentials()
  const { email, secret } = credentials
  const db = getDb()
  const appPassword = await db.appPassword.findUnique({
    where: { secretHash: hashAppPassword(secret) },
    select: { id: true, lastUsedAt: true, user: { select: { id: true, role: true, email: true } } },
  })
  if (!appPassword || appPassword.user.email !== email) throw invalidCredentials()
  // Recorded to the minute: a busy program would otherwise write on every request.
  const now = new Date()
  if (!appPassword.lastUsedAt || now.getTime() - appPassword.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    await db.appPassword.update({ where: { id: appPassword.id }, data: { lastUsedAt: now } })
  }
  return { id: appPassword.user.id, role: appPassword.user.role }
}

/** The Origin is this site: SITE_URL's, or the host the request was sent to (as Next.js checks server actions). */
function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin')
  if (origin === null) return false
  if (origin === new URL(getConfig().siteUrl).origin) return true
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host')
  try {
    return host !== null && new URL(origin).host === host
  } catch {
    return false
  }
}
