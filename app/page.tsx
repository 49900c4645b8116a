import { MapPage } from './_components/map-page'

// The public map: every published place, clustered, with the search, the filter and the list of those in view.
export default async function HomePage({ searchParams }: PageProps<'/'>) {
  return <MapPage searchParams={await searchParams} mode="home" />
}
