import 'server-only'
import type { NextAuthOptions, Session } from 'next-auth'
import CredentialsProvider from 'next-auth/providers/credentials'
import { getConfig } from '../config'
import { safeCallbackPath } from './callback-url'
import { getAuthSecret } from './secret'
import { findSessionUser } from './sessions'
import { authorizeWithPassword } from './sign-in-route'

declare module 'next-auth' {
  interface Session {
    user: { id: number; email: string; name: string; role: string }
  }
  interface User {
    id: string
    role: string
    /** read with the password hash that was checked: a password changed during the check ends this session too */
    sessionVersion: string
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    uid?: number
    /** the user's session version at sign-in (lib/auth/sessions.ts) */
    sv?: string
    role?: string
  }
}

let options: NextAuthOptions | undefined

export function getAuthOptions(): NextAuthOptions {
  process.env.NEXTAUTH_URL ??= getConfig().siteUrl
  options ??= {
    secret: getAuthSecret(),
    session: { strategy: 'jwt', maxAge: 7 * 24 * 60 * 60 },
    pages: { signIn: '/signin', error: '/signin' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: authorizeWithPassword,
      }),
    ],
    callbacks: {
      // On every request that reads the session: it holds only while its user, email and session version are the
      // user's now (lib/auth/sessions.ts), and the name and role are read afresh. An ended session keeps nothing.
      async jwt({ token, user }) {
        if (user) return { ...token, uid: Number(user.id), email: user.email ?? undefined, sv: user.sessionVersion, role: user.role }
        const current = await findSessionUser(token)
        return current ? { ...token, email: current.email, name: current.name, role: current.role } : {}
      },
      session({ session, token }) {
        // No keys at all for an ended session: getServerSession then answers null, the browser sees no session.
        if (typeof token.uid !== 'number') return {} as Session
        session.user = { id: token.uid, email: token.email ?? '', name: token.name ?? '', role: token.role ?? '' }
        return session
      },
      // Where sign-in and sign-out send the browser afterwards: this site only (callback-url.ts).
      redirect({ url, baseUrl }) {
        return new URL(safeCallbackPath(url, baseUrl, '/'), baseUrl).href
      },
    },
  }
  return options
}
