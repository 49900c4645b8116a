/** The page size of /ogc/collections/{id}/items: its default, and the most it gives (larger limits are capped). */
export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 1000
