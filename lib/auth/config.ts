import 'server-only'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { NextAuthOptions } from 'next-auth'
import CredentialsProvider from 'next-auth/providers/credentials'
import { getConfig } from '../config'
import { authorizeWithPassword } from './sign-in-route'

declare module 'next-auth' {
  interface Session {
    user: { id: number; email: string; name: string; role: string }
  }
  interface User {
    id: string
    role: string
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    uid?: number
    role?: string
  }
}

/** AUTH_SECRET, else a secret made once and kept in ./data/auth-secret (set AUTH_SECRET when several instances run). */
export function getAuthSecret(): string {
  const configured = getConfig().authSecret
  if (configured) return configured
  const file = path.resolve('data', 'auth-secret')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(path.dirname(file), { recursive: true })
    const secret = randomBytes(32).toString('base64url')
    try {
      writeFileSync(file, secret, { flag: 'wx', mode: 0o600 })
      return secret
    } catch {
      return readFileSync(file, 'utf8').trim() // another process wrote it first
    }
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
      jwt({ token, user }) {
        if (user) {
          token.uid = Number(user.id)
          token.role = user.role
        }
        return token
      },
      session({ session, token }) {
        session.user = { id: token.uid ?? 0, email: token.email ?? '', name: token.name ?? '', role: token.role ?? '' }
        return session
      },
    },
  }
  return options
}
