import { connection } from 'next/server'
import { getConfig } from '@/lib/config'
import { toFeatureCollection } from '@/lib/places/geojson'
import { listPublicPlaces } from '@/lib/places/query'
import { DEFAULT_PER_PAGE } from '@/lib/places/schemas'

export default async function HomePage() {
  await connection()
  const places = toFeatureCollection(
    await listPublicPlaces({ postType: 'post', limit: DEFAULT_PER_PAGE, categoryId: null }),
    getConfig().siteUrl,
  )
  return (
    <main>
      <h1>Places</h1>
      <ul className="place-list">
        {places.features.map(({ properties }) => (
          <li key={properties.id}>
            <a href={properties.url}>{properties.title}</a>
            {properties.address && <span className="post-meta"> · {properties.address}</span>}
          </li>
        ))}
      </ul>
    </main>
  )
}
