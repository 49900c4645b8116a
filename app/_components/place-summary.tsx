import type { PlaceEmbedded } from '@/lib/api/contract'
import { Picture } from './picture'

// What a popup and the list show of a place: its picture, title (a link to its page), date, address and categories.
// React renders every text: nothing from the data becomes HTML.

/** A place of the list, as GET /places/v1/geojson gives it; `embedded` when asked with `_embed`. */
export type ListedPlace = {
  id: number
  title: string
  url: string
  address: string
  latitude: number
  longitude: number
  embedded?: PlaceEmbedded
}

const DATE = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' })

type Props = {
  place: ListedPlace
  /** the `sizes` of the picture: how wide it is drawn */
  sizes: string
  titleRef?: (link: HTMLAnchorElement | null) => void
}

export function PlaceSummary({ place, sizes, titleRef }: Props) {
  const { embedded } = place
  return (
    <>
      {embedded?.picture && <Picture picture={embedded.picture} sizes={sizes} className="place-picture" />}
      <a ref={titleRef} href={place.url} className="place-title">
        {place.title}
      </a>
      {embedded && (
        <time className="post-meta place-date" dateTime={embedded.date}>
          {DATE.format(new Date(embedded.date))}
        </time>
      )}
      {place.address && <span className="post-meta place-address">{place.address}</span>}
      {embedded && embedded.categories.length > 0 && (
        <span className="place-categories">
          <span className="visually-hidden">Categories: </span>
          {embedded.categories.map((category, i) => (
            <span key={category.id}>
              {category.name}
              {/* read as a list, drawn as tags */}
              <span className="visually-hidden">{i < embedded.categories.length - 1 ? ', ' : ''}</span>
            </span>
          ))}
        </span>
      )}
    </>
  )
}
