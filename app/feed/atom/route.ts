import { feedRoute } from '@/lib/places/feed'

// GET /feed/atom – Atom 1.0 of the newest posts, with GeoRSS
export const GET = feedRoute('atom')
