import { expect, type APIRequest, type APIRequestContext, type APIResponse } from '@playwright/test'
import type { Role } from './places-cli'

// Credentials for the protected route (docs/api.md, Credentials): an application password sent with HTTP Basic
// (`email:app-password`, as WordPress's Application Passwords), or the session cookie of next-auth's sign-in.

export const ROLES: readonly Role[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber']
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const
export type Status = (typeof STATUSES)[number]

/** The value of an Authorization header for HTTP Basic. */
export function basic(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`, 'utf8').toString('base64')}`
}

export type SignIn = {
  /** keeps the cookies of this sign-in: one per signed-in user */
  context: APIRequestContext
  /** whether next-auth set a session cookie and answered without an error */
  ok: boolean
  /** the `url` next-auth answered with (`…?error=…` when it refused) */
  url: string
  status: number
}

/** A sign-in form as the browser holds it: a context with next-auth's CSRF cookie, and the token to post with it. */
export type SignInForm = {
  context: APIRequestContext
  /** POSTs the form with these credentials; `headers` go with the POST */
  submit: (email: string, password: string, headers?: Record<string, string>) => Promise<SignIn>
}

/**
 * Opens the sign-in as the sign-in page does: GET /api/auth/csrf in a fresh context. `submit` then POSTs the form
 * to next-auth's credentials callback with `json: 'true'` (next-auth then answers `{url}` instead of redirecting).
 */
export async function openSignIn(request: APIRequest, baseURL: string): Promise<SignInForm> {
  const context = await request.newContext({ baseURL })
  const csrf = await context.get('/api/auth/csrf')
  expect(csrf.status(), 'GET /api/auth/csrf').toBe(200)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const submit = async (email: string, password: string, headers: Record<string, string> = {}): Promise<SignIn> => {
    const response = await context.post('/api/auth/callback/credentials', {
      form: { csrfToken, email, password, json: 'true' },
      headers,
      maxRedirects: 0,
    })
    const text = await response.text()
    let url = response.headers().location ?? ''
    try {
      url = (JSON.parse(text) as { url?: string }).url ?? url
    } catch {
      // not JSON: the Location header says where it went
    }
    const cookies = (await context.storageState()).cookies
    const hasSession = cookies.some((c) => /^(__Secure-)?next-auth\.session-token$/.test(c.name) && c.value !== '')
    return { context, ok: hasSession && !/[?&]error=/.test(url), url, status: response.status() }
  }
  return { context, submit }
}

/** Signs in once, in a fresh context (see openSignIn). */
export async function signIn(request: APIRequest, baseURL: string, email: string, password: string, headers: Record<string, string> = {}): Promise<SignIn> {
  return (await openSignIn(request, baseURL)).submit(email, password, headers)
}

/** Signs in, which must succeed; the context then carries that user's session. */
export async function signInOrThrow(request: APIRequest, baseURL: string, email: string, password: string): Promise<APIRequestContext> {
  const result = await signIn(request, baseURL, email, password)
  expect(result.ok, `sign-in of ${email}: ${result.status} ${result.url}`).toBe(true)
  const session = (await (await result.context.get('/api/auth/session')).json()) as { user?: { email?: string } }
  expect(session.user?.email, `the session of ${email}`).toBe(email)
  return result.context
}

// docs/api.md, Capabilities: the roles' primitive capabilities, as in WordPress.
type Capability = 'edit_posts' | 'edit_others_posts' | 'edit_published_posts' | 'edit_private_posts'
const CAPABILITIES: Record<Role, readonly Capability[]> = {
  administrator: ['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts'],
  editor: ['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts'],
  author: ['edit_posts', 'edit_published_posts'],
  contributor: ['edit_posts'],
  subscriber: [],
}

/**
 * Whether `role` holds `edit_post` on a post of this status, its own or another's (docs/api.md, Capabilities):
 * own post: `edit_published_posts` when published or scheduled, else `edit_posts`; another's: `edit_others_posts`,
 * plus `edit_published_posts` when published or scheduled, plus `edit_private_posts` when private. A trashed post
 * counts with the status it had before: `statusBeforeTrash`.
 */
export function mayEditPost(role: Role, isOwn: boolean, status: Status, statusBeforeTrash: Exclude<Status, 'trash'>): boolean {
  const effective = status === 'trash' ? statusBeforeTrash : status
  const isPublic = effective === 'publish' || effective === 'future'
  const needed: Capability[] = isOwn
    ? [isPublic ? 'edit_published_posts' : 'edit_posts']
    : ['edit_others_posts', ...(isPublic ? (['edit_published_posts'] as const) : []), ...(effective === 'private' ? (['edit_private_posts'] as const) : [])]
  return needed.every((cap) => CAPABILITIES[role].includes(cap))
}

export const PRIVATE_NO_STORE = 'private, no-store'

/** docs/api.md, Caching: every answer of the protected route, success or error, is `Cache-Control: private, no-store`. */
export function expectPrivateNoStore(response: APIResponse, what: string): void {
  expect(response.headers()['cache-control'], `Cache-Control of ${what}`).toBe(PRIVATE_NO_STORE)
}
