import NextAuth from 'next-auth'
import type { NextRequest } from 'next/server'
import { getAuthOptions } from '@/lib/auth/config'

// next-auth's sign-in, sign-out, session and CSRF endpoints
const handler = (request: NextRequest, context: RouteContext<'/api/auth/[...nextauth]'>) => NextAuth(getAuthOptions())(request, context)

export { handler as GET, handler as POST }
