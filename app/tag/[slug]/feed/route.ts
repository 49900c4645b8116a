import { feedRoute } from '@/lib/places/feed'

// GET /tag/{slug}/feed – RSS 2.0 of the tag's newest posts
export const GET = feedRoute('rss', 'tag')
