import { feedRoute } from '@/lib/places/feed'

// GET /feed – RSS 2.0 of the newest posts, with GeoRSS (README, "Feeds")
export const GET = feedRoute('rss')
