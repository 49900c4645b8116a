/** `2024-05-01T12:34:56.000Z` → `2024-05-01 12:34`: the admin shows times in UTC, to the minute. */
export function formatUtcMinute(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ')
}

/** A coordinate at the admin's one precision (lib/geo/precision.ts), for messages. */
export { formatCoordinate } from '@/lib/geo/precision'
