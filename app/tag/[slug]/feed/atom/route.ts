import { feedRoute } from '@/lib/places/feed'

// GET /tag/{slug}/feed/atom – the same as Atom 1.0
export const GET = feedRoute('atom', 'tag')
