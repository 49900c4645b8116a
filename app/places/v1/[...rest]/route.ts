import { noRoute } from '@/lib/http/errors'
import { route } from '@/lib/http/route'

// Any other path under /places/v1: WordPress's answer for a route that does not exist
const notFound = route(() => {
  throw noRoute()
})

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE }
