import 'server-only'
import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { ROLES, type Role } from '../auth/capabilities'
import { getDb, lockTables, transaction } from '../db'
import { ApiError } from '../http/errors'
import { storeAttachment } from '../media/storage'
import { readTrackFile } from '../places/formats/read'
import { featuresOfCollection, importPlaces, type ImportOptions } from '../places/import'
import { createTrip } from '../trips/trips'
import { createUser } from '../users'

export const DEMO_FILE = path.join('prisma', 'demo', 'places.geojson')
/** The demo's trip: a real hike's GPS log (prisma/demo/README.md). */
const DEMO_TRACK = path.join('prisma', 'demo', 'zbevnica.gpx')
const DEMO_TRIP = {
  title: 'A hike to Zbevnica',
  description: 'Up through the beech woods of Ćićarija to the top of Zbevnica (1,014 m), as a GPS logger recorded it.',
}
const DEMO_PHOTOS = path.join('lib', 'demo', 'photos')

// Real photos (lib/demo/photos/ATTRIBUTION.md), stored as uploads are, sizes and all: by the title of their post.
type DemoPhoto = { file: string; title: string }
const PHOTOS: Record<string, DemoPhoto[]> = {
  'Space Needle': [{ file: 'flowers-seattle.jpg', title: 'Flowers near the Space Needle' }],
  "King's Cross Station": [
    { file: 'frosted-branches-london.jpg', title: 'Frosted branches at night, north London' },
    { file: 'train-line.jpg', title: 'A train on an electrified line' },
  ],
  // An iPhone's HEIC, which browsers cannot show: the site shows its sizes.
  'Belém Tower': [{ file: 'jeronimos-lisbon.heic', title: 'Inside the church of the Jerónimos Monastery, Belém' }],
  'Trinity College Dublin': [{ file: 'sunset-dublin.jpg', title: 'Sunset over Dublin' }],
  'Milan Cathedral': [{ file: 'car-park-milan.webp', title: 'A car park on the edge of Milan' }],
}

// A draft with photos but no location, so that a newcomer can press "Import location from media" at once: the
// first photo's GPS is near the Colosseum.
const DRAFT_WITH_PHOTOS = {
  type: 'Feature',
  geometry: null,
  properties: {
    title: 'Photos from Rome',
    status: 'draft',
    content: 'A draft without a location: its photos know where they were taken.',
    author: 'contributor@example.com',
  },
}
const DRAFT_PHOTOS: DemoPhoto[] = [
  { file: 'bill-rome.jpg', title: 'The bill, table 30, Rome' },
  { file: 'road-sign-germany.jpg', title: 'A road sign to Alt Hammoor' },
]

export type DemoUser = { email: string; role: Role; password: string }

export async function isDatabaseEmpty(): Promise<boolean> {
  const db = getDb()
  return (await db.user.count()) === 0 && (await db.post.count()) === 0
}

// Who wrote what in the demo: contributors write drafts and pending posts; the rest is shared out.
const WRITERS: Role[] = ['administrator', 'editor', 'author']

/**
 * Loads the demo site into an empty database: a user of every role (each with a new random password, returned
 * here and nowhere stored in clear), the places of prisma/demo/places.geojson, real photos on a few of them, a
 * draft with photos but no location, and a trip.
 */
export async function seedDemo(onProgress?: ImportOptions['onProgress']): Promise<{ users: DemoUser[]; postIds: number[]; trips: number }> {
  if (!(await isDatabaseEmpty())) throw new ApiError('places_not_empty', 'The database already has users or posts; the demo loads only into an empty one.')
  const users: DemoUser[] = []
  for (const role of ROLES) {
    const user = { email: `${role}@example.com`, role, password: randomBytes(12).toString('base64url') }
    await createUser({ ...user, name: `Demo ${role}` })
    users.push(user)
  }
  const demo = JSON.parse(await readFile(DEMO_FILE, 'utf8')) as { features: { properties: Record<string, unknown> }[] }
  demo.features.forEach(({ properties }, i) => {
    const role = properties.status === 'draft' || properties.status === 'pending' ? 'contributor' : WRITERS[i % WRITERS.length]
    properties.author = `${role}@example.com`
  })
  demo.features.push(DRAFT_WITH_PHOTOS)
  const postIds = await importPlaces(featuresOfCollection(demo), { onProgress })
  const photos = demo.features.map(({ properties }, i) => ({ postId: postIds[i]!, files: PHOTOS[String(properties.title)] ?? [] }))
  photos[photos.length - 1]!.files = DRAFT_PHOTOS
  for (const { postId, files } of photos) {
    for (const { file, title } of files) await storeAttachment({ postId, filename: file, title, body: createReadStream(path.join(DEMO_PHOTOS, file)) })
  }
  const tracks = await readTrackFile(DEMO_TRACK)
  await transaction(async (tx) => {
    await lockTables(tx, ['trips'])
    await createTrip(tx, { ...DEMO_TRIP, tracks })
  })
  return { users, postIds, trips: 1 }
}
