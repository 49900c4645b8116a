/** A coordinate at the admin's one precision (lib/geo/precision.ts), for messages. */
export { formatCoordinate } from '@/lib/geo/precision'
