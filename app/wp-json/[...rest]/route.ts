import { noRoute } from '@/lib/http/errors'
import { route } from '@/lib/http/route'

// Any other path under /wp-json (places/v1 is rewritten to /places/v1, next.config.mjs): WordPress's rest_no_route
const notFound = route(() => {
  throw noRoute()
})

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE }
