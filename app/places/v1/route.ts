import { getNamespaceIndex } from '@/lib/api/namespace-index'
import { getConfig } from '@/lib/config'
import { preflight, route } from '@/lib/http/route'

// GET /places/v1 – the namespace's routes, as WordPress describes a namespace
export const GET = route(() => Response.json(getNamespaceIndex(getConfig())), { cors: true })

export const OPTIONS = preflight
