import { createContext, use, type CSSProperties } from 'react'
import type { PlaceEmbedded } from '@/lib/api/contract'
import { Picture } from './picture'

/** Each category's colour on the map (category-colors.ts, colorMap), which its tag shows as a dot. */
export const CategoryColors = createContext<ReadonlyMap<number, string>>(new Map())

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

// One format per time zone: a list draws many dates. A zone the server knows and this browser does not (a new one, an
// old browser) is shown as UTC rather than break the map.
const formats = new Map<string, Intl.DateTimeFormat>()
const dateIn = (timeZone: string, date: string) => {
  let format = formats.get(timeZone)
  if (!format) {
    const zoned = (zone: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: zone })
    try {
      format = zoned(timeZone)
    } catch {
      format = zoned('UTC')
    }
    formats.set(timeZone, format)
  }
  return format.format(new Date(date))
}

type Props = {
  place: ListedPlace
  /** the `sizes` of the picture: how wide it is drawn */
  sizes: string
  titleRef?: (link: HTMLAnchorElement | null) => void
  /** the site's time zone (lib/site.ts), in which the date is shown, as on the post's page */
  timeZone: string
}

export function PlaceSummary({ place, sizes, titleRef, timeZone }: Props) {
  const { embedded } = place
  const colors = use(CategoryColors)
  return (
    <>
      {embedded?.picture && <Picture picture={embedded.picture} sizes={sizes} className="place-picture" />}
      <a ref={titleRef} href={place.url} className="place-title">
        {place.title}
      </a>
      {embedded && (
        <time className="post-meta place-date" dateTime={embedded.date}>
          {dateIn(timeZone, embedded.date)}
        </time>
      )}
      {place.address && <span className="post-meta place-address">{place.address}</span>}
      {embedded && embedded.categories.length > 0 && (
        <span className="place-categories">
          <span className="visually-hidden">Categories: </span>
          {embedded.categories.map((category, i) => (
            <span key={category.id} style={colors.has(category.id) ? ({ '--chip': colors.get(category.id) } as CSSProperties) : undefined}>
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
