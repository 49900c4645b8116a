import NextAuth from 'next-auth'
import type { NextRequest } from 'next/server'
import { getAuthOptions } from '@/lib/auth/config'
import { guardAuthRoute } from '@/lib/auth/sign-in-route'

// next-auth's sign-in, sign-out, session and CSRF endpoints; bodies bounded and throttled sign-ins answered 429
type Handler = (request: NextRequest, context: RouteContext<'/api/auth/[...nextauth]'>) => Promise<Response>
// next-auth declares its route handler as `any`.
const handler: Handler = (request, context) => guardAuthRoute(request, () => (NextAuth(getAuthOptions()) as Handler)(request, context))

export { handler as GET, handler as POST }
