import { feedRoute } from '@/lib/places/feed'

// GET /category/{slug}/feed – RSS 2.0 of the category's newest posts, its descendants' included
export const GET = feedRoute('rss', 'category')
