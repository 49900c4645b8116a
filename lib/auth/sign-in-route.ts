import 'server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import type { User } from 'next-auth'
import { cookies } from 'next/headers'
import { getConfig } from '../config'
import { ApiError } from '../http/errors'
import { clientAddress } from './client-address'
import { getAuthSecret } from './secret'
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS, deviceCookieKey } from './device-cookie'
import { signInWithPassword } from './sign-in'

// Where next-auth's credentials sign-in (app/api/auth/[...nextauth]/route.ts) meets lib/auth/sign-in.ts. next-auth
// turns anything authorize() throws into a 401 with the message as `?error=`; a throttled attempt must be a 429
// with Retry-After instead, so authorize() notes the wait in the request's async context and guardAuthRoute()
// rewrites the answer. The device cookie is set with next/headers' cookies(), which Next.js merges into a route
// handler's answer (appendMutableCookies in next/dist/server/route-modules/app-route/module.js).

/** next-auth's forms are a few hundred bytes; credentials at their limits (lib/auth/limits.ts) fit easily. */
const MAX_BODY_BYTES = 16 * 1024

// On globalThis, like lib/auth/hash-slots.ts's slots: the route and next-auth's options may be bundled apart.
const SHARED = Symbol.for('places.sign-in-refusals')
const shared = globalThis as typeof globalThis & { [SHARED]?: AsyncLocalStorage<{ retryAfter?: number }> }
const refusals = (shared[SHARED] ??= new AsyncLocalStorage())
let cookieKey: Buffer | undefined

/**
 * Runs next-auth's handler for this request: a POST must say its length and keep under MAX_BODY_BYTES (it is
 * refused before next-auth reads it), and a throttled sign-in is answered 429 with Retry-After.
 */
export async function guardAuthRoute(request: Request, handle: () => Promise<Response>): Promise<Response> {
  if (request.method === 'POST') {
    const length = Number(request.headers.get('content-length') ?? NaN)
    if (Number.isNaN(length)) return signInError(411, 'The sign-in form was sent without its length.')
    if (length > MAX_BODY_BYTES) return signInError(413, 'The email address or password is too long.')
  }
  const refusal: { retryAfter?: number } = {}
  const response = await refusals.run(refusal, handle)
  if (refusal.retryAfter === undefined) return response
  const headers = new Headers(response.headers)
  headers.set('Retry-After', String(refusal.retryAfter))
  // A form posted without script is redirected to the sign-in page, which shows the message: it stays a redirect.
  const status = response.status === 401 ? 429 : response.status
  return new Response(response.body, { status, statusText: status === 429 ? 'Too Many Requests' : response.statusText, headers })
}

/** What next-auth answers a refused sign-in with (`{url}` with the message as ?error=), which its client shows. */
function signInError(status: number, message: string): Response {
  const url = `${getConfig().siteUrl}/signin?${new URLSearchParams({ error: message })}`
  return Response.json({ url }, { status, headers: { 'Cache-Control': 'no-store' } })
}

/** The credentials provider's authorize(): signs in, sets the device cookie; errors become next-auth's `?error=`. */
export async function authorizeWithPassword(
  credentials: Partial<Record<'email' | 'password', string>> | undefined,
  request: { headers?: Record<string, string | string[] | undefined> },
): Promise<User | null> {
  if (!credentials?.email || !credentials.password) return null
  const jar = await cookies()
  const key = (cookieKey ??= deviceCookieKey(getAuthSecret()))
  try {
    const { user, deviceCookie } = await signInWithPassword({
      email: credentials.email,
      password: credentials.password,
      clientAddress: clientAddress(request.headers ?? {}),
      deviceCookie: jar.get(DEVICE_COOKIE)?.value,
      deviceCookieKey: key,
    })
    jar.set(DEVICE_COOKIE, deviceCookie, {
      httpOnly: true,
      sameSite: 'lax',
      secure: getConfig().siteUrl.startsWith('https:'),
      path: '/api/auth',
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    })
    return { id: String(user.id), email: user.email, name: user.name, role: user.role, sessionVersion: user.sessionVersion }
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const store = refusals.getStore()
    if (store && error.status === 429) store.retryAfter = Number(error.data.retryAfter ?? 1)
    throw new Error(error.message) // next-auth passes the message to the sign-in page as ?error=…
  }
}
