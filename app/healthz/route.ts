import { route } from '@/lib/http/route'
import { checkHealth } from '@/lib/health'

// GET /healthz – 200 when the server has started and its database answers; 503 while it starts or when the database does not
export const GET = route(async () => {
  const health = await checkHealth()
  return Response.json(health, { status: health.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } })
})
