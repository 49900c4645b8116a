import { preflight, route } from '@/lib/http/route'
import { getOEmbed, oembedXml, parseOEmbedQuery } from '@/lib/places/oembed'

// GET /wp-json/oembed/1.0/embed?url=… – how to embed a page of this site (the map, a post's place), as WordPress answers
export const GET = route(
  async (request: Request) => {
    const query = parseOEmbedQuery(new URL(request.url).searchParams)
    const answer = await getOEmbed(query)
    if (query.format === 'xml') return new Response(oembedXml(answer), { headers: { 'Content-Type': 'text/xml; charset=UTF-8' } })
    return Response.json(answer)
  },
  { cors: true },
)

export const OPTIONS = preflight
