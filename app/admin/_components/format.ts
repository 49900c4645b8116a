/** `2024-05-01T12:34:56.000Z` → `2024-05-01 12:34`: the admin shows times in UTC, to the minute. */
export function formatUtcMinute(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ')
}

/** A coordinate to five decimals (about a metre), for messages. */
export function formatCoordinate(value: number): string {
  return String(Math.round(value * 1e5) / 1e5)
}
