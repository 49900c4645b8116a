import 'server-only'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { ROLES, type Role } from '../auth/capabilities'
import { getDb } from '../db'
import { ApiError } from '../http/errors'
import { featuresOfCollection, importPlaces, type ImportOptions } from '../places/import'
import { createUser } from '../users'

export const DEMO_FILE = path.join('prisma', 'demo', 'places.geojson')

export type DemoUser = { email: string; role: Role; password: string }

export async function isDatabaseEmpty(): Promise<boolean> {
  const db = getDb()
  return (await db.user.count()) === 0 && (await db.post.count()) === 0
}

// Who wrote what in the demo: contributors write drafts and pending posts; the rest is shared out.
const WRITERS: Role[] = ['administrator', 'editor', 'author']

/**
 * Loads the demo site into an empty database: a user of every role (each with a new random password, returned
 * here and nowhere stored in clear) and the places of prisma/demo/places.geojson.
 */
export async function seedDemo(onProgress?: ImportOptions['onProgress']): Promise<{ users: DemoUser[]; postIds: number[] }> {
  if (!(await isDatabaseEmpty())) throw new ApiError('places_not_empty', 'The database already has users or posts; the demo loads only into an empty one.', 409)
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
  const postIds = await importPlaces(featuresOfCollection(demo), { onProgress })
  return { users, postIds }
}
