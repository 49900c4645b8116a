/** A coordinate at the admin's one precision (lib/geo/precision.ts), for messages. */
export { formatCoordinate } from '@/lib/geo/precision'

/** "1 post", "2 posts", "1,200 posts": a count and its word. */
export const plural = (count: number, word: string, words = `${word}s`): string => `${count.toLocaleString('en')} ${count === 1 ? word : words}`
