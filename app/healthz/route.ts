import { route } from '@/lib/http/route'
import { checkHealth } from '@/lib/health'

// GET /healthz – 200 when the server and its database answer, 503 when the database does not
export const GET = route(async () => {
  const health = await checkHealth()
  return Response.json(health, { status: health.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
})
