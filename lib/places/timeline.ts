import 'server-only'
import { z } from 'zod'
import type { Timeline } from '../api/contract'
import { getSiteSettings } from '../site'
import { getPlaceIndex } from './map-index'
import { datesIn, MAX_MONTHS, timelineOf } from './map-index/periods'
import { publicAnswer, type PublicAnswer } from './public'
import { collectionParams, parseQuery, queryValues, viewFilterOf, type ViewFilter } from './schemas'

// GET /places/v1/timeline: how many places of a map view (GET /geojson's filters and box) were published in each
// year or month, for the map's timeline (docs/api.md, Timeline). Read from the map's index: its dates descend with its
// order, so each period's count is two binary searches over the dates of the view's places (periods.ts).

export const timelineParams = {
  post_type: collectionParams.post_type,
  category: collectionParams.category,
  tag: collectionParams.tag,
  search: collectionParams.search,
  bbox: collectionParams.bbox.meta({ description: "Only places inside `west,south,east,north`, as GET /geojson reads it: the map's view." }),
  unit: z.enum(['year', 'month'], { error: 'unit must be year or month.' }).meta({
    description: `Count by year or by month; by default by month when the places span at most ${MAX_MONTHS} months, else by year.`,
  }),
}

export type TimelineQuery = ViewFilter & { unit?: Timeline['unit'] }

const timelineQuerySchema = z
  .object(timelineParams)
  .partial()
  .transform(({ unit, ...filter }): TimelineQuery => (unit ? { ...viewFilterOf(filter), unit } : viewFilterOf(filter)))

/** GET /places/v1/timeline's query; throws 400 `rest_invalid_param` naming every invalid parameter. */
export function parseTimelineQuery(params: URLSearchParams): TimelineQuery {
  return parseQuery(timelineQuerySchema, queryValues(params, 'last'))
}

export async function getTimeline(query: TimelineQuery): Promise<PublicAnswer & { contentType: string }> {
  const build = async (version: number) => {
    const index = await getPlaceIndex(query, version)
    return JSON.stringify(timelineOf(datesIn(index, query.bbox), (await getSiteSettings()).timezone, query.unit))
  }
  return { ...(await publicAnswer('timeline', query, build)), contentType: 'application/json; charset=utf-8' }
}
