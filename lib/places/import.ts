import 'server-only'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { getDialect, transaction, type Tx } from '../db'
import { ApiError } from '../http/errors'
import { slugify, uniqueSlug } from '../slugs'
import { resolveCategoryPaths } from './categories'
import { importCollectionSchema, importFeatureSchema, type ImportFeature } from './schemas'

export type ImportOptions = {
  /** email of the author of features that name none; else the first administrator */
  defaultAuthor?: string
  /** called as rows are written: how many of `total` posts are in */
  onProgress?: (done: number, total: number) => void
}

const MAX_LISTED_ERRORS = 20
const CHUNK = 500

function invalidImport(problems: string[]): ApiError {
  const more = problems.length > MAX_LISTED_ERRORS ? [`…and ${problems.length - MAX_LISTED_ERRORS} more`] : []
  return new ApiError('places_invalid_import', ['Nothing was imported:', ...problems.slice(0, MAX_LISTED_ERRORS), ...more].join('\n'), 400)
}

/** Checks a whole import file; every problem names the feature's index and the field. */
export function parseImport(input: unknown): ImportFeature[] {
  const collection = importCollectionSchema.safeParse(input)
  if (!collection.success) throw invalidImport(['the file is not a GeoJSON FeatureCollection ({"type": "FeatureCollection", "features": [...]})'])
  const problems: string[] = []
  const features: ImportFeature[] = []
  collection.data.features.forEach((raw, index) => {
    const parsed = importFeatureSchema.safeParse(raw)
    if (parsed.success) features.push(parsed.data)
    else for (const issue of parsed.error.issues) problems.push(`feature ${index}: ${issue.path.join('.') || 'feature'}: ${issue.message}`)
  })
  const seenIds = new Map<number, number>()
  features.forEach((feature, index) => {
    const id = feature.properties.id
    if (id === undefined) return
    const first = seenIds.get(id)
    if (first !== undefined) problems.push(`feature ${index}: properties.id: ${id} is also the id of feature ${first}`)
    else seenIds.set(id, index)
  })
  if (problems.length > 0) throw invalidImport(problems)
  return features
}

/**
 * Imports an import-format FeatureCollection (spec/CLI.md) in one transaction: all of it, or nothing.
 * Returns the new post ids in input order.
 */
export async function importPlaces(input: unknown, options: ImportOptions = {}): Promise<number[]> {
  const features = parseImport(input)
  return transaction((tx) => writePosts(tx, features, options), { maxWait: 60_000, timeout: 3_600_000 })
}

async function writePosts(tx: Tx, features: ImportFeature[], options: ImportOptions): Promise<number[]> {
  await lockForImport(tx)
  const authorIds = await resolveAuthors(tx, features, options.defaultAuthor)
  const ids = await assignIds(tx, features)
  const categoryIds = await resolveCategoryPaths(tx, new Set(features.flatMap((f) => f.properties.categories)))
  const slugs = await assignSlugs(tx, features)

  const now = new Date()
  const posts = features.map(({ geometry, properties: p }, i) => ({
    id: ids[i]!,
    type: p.type,
    status: p.status,
    title: p.title,
    slug: slugs[i]!,
    content: p.content,
    publishedAt: p.date ?? now,
    modifiedAt: now,
    authorId: authorIds[i]!,
    latitude: geometry?.coordinates[1] ?? null,
    longitude: geometry?.coordinates[0] ?? null,
    address: p.address,
    locationPublic: p.geo_public,
  }))
  for (let start = 0; start < posts.length; start += CHUNK) {
    await tx.post.createMany({ data: posts.slice(start, start + CHUNK) })
    options.onProgress?.(Math.min(start + CHUNK, posts.length), posts.length)
    // SQLite answers synchronously, so without this the whole import would run without the event loop ever
    // turning: no signal, no closed IPC channel (bin/cli.ts) could stop it half-way.
    await nextTurn()
  }
  const links = features.flatMap((f, i) => [...new Set(f.properties.categories.map((path) => categoryIds.get(path)))]
    .filter((id): id is number => id !== undefined)
    .map((categoryId) => ({ postId: ids[i]!, categoryId })))
  for (let start = 0; start < links.length; start += CHUNK * 4) {
    await tx.postCategory.createMany({ data: links.slice(start, start + CHUNK * 4) })
  }
  if (getDialect() === 'postgresql' && posts.length > 0) {
    // Rows were written with their ids: move the id sequence past them.
    await tx.$executeRaw`SELECT setval(pg_get_serial_sequence('posts', 'id'), (SELECT MAX("id") FROM "posts"))`
  }
  return ids
}

/** Takes the write lock before reading what the import depends on (free ids, slugs), so no writer slips between. */
async function lockForImport(tx: Tx): Promise<void> {
  if (getDialect() === 'postgresql') await tx.$executeRaw`LOCK TABLE "posts", "categories" IN SHARE ROW EXCLUSIVE MODE`
  else await tx.$executeRaw`UPDATE "site_state" SET "data_version" = "data_version" WHERE "id" = 0`
}

async function resolveAuthors(tx: Tx, features: ImportFeature[], defaultAuthor?: string): Promise<number[]> {
  const emails = new Set(features.flatMap((f) => (f.properties.author ? [f.properties.author.toLowerCase()] : [])))
  if (defaultAuthor) emails.add(defaultAuthor.toLowerCase())
  const users = await tx.user.findMany({ where: { email: { in: [...emails] } }, select: { id: true, email: true } })
  const byEmail = new Map(users.map((u) => [u.email, u.id]))
  let fallback: number | undefined
  if (defaultAuthor) {
    fallback = byEmail.get(defaultAuthor.toLowerCase())
    if (fallback === undefined) throw invalidImport([`--author: no user has the email ${defaultAuthor}`])
  } else if (features.some((f) => !f.properties.author)) {
    fallback = (await tx.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' }, select: { id: true } }))?.id
  }
  const problems: string[] = []
  const ids = features.map((f, index) => {
    const email = f.properties.author?.toLowerCase()
    const id = email ? byEmail.get(email) : fallback
    if (id === undefined) {
      problems.push(email
        ? `feature ${index}: properties.author: no user has the email ${email}`
        : `feature ${index}: properties.author: not given, no --author, and there is no administrator to default to`)
    }
    return id ?? 0
  })
  if (problems.length > 0) throw invalidImport(problems)
  return ids
}

async function assignIds(tx: Tx, features: ImportFeature[]): Promise<number[]> {
  const wanted = features.flatMap((f) => (f.properties.id === undefined ? [] : [f.properties.id]))
  const taken = new Set<number>()
  for (let start = 0; start < wanted.length; start += 10_000) {
    const rows = await tx.post.findMany({ where: { id: { in: wanted.slice(start, start + 10_000) } }, select: { id: true } })
    for (const row of rows) taken.add(row.id)
  }
  if (taken.size > 0) {
    throw invalidImport(features.flatMap((f, index) =>
      f.properties.id !== undefined && taken.has(f.properties.id) ? [`feature ${index}: properties.id: post ${f.properties.id} already exists`] : []))
  }
  const explicit = new Set(wanted)
  let next = ((await tx.post.aggregate({ _max: { id: true } }))._max.id ?? 0) + 1
  return features.map((f) => {
    if (f.properties.id !== undefined) return f.properties.id
    while (explicit.has(next)) next++
    return next++
  })
}

async function assignSlugs(tx: Tx, features: ImportFeature[]): Promise<string[]> {
  const types = [...new Set(features.map((f) => f.properties.type))]
  const rows = await tx.post.findMany({ where: { type: { in: types } }, select: { type: true, slug: true } })
  const taken = new Set(rows.map((row) => `${row.type}/${row.slug}`))
  return features.map(({ properties: p }) => {
    const slug = uniqueSlug(slugify(p.slug ?? p.title), (s) => taken.has(`${p.type}/${s}`))
    taken.add(`${p.type}/${slug}`)
    return slug
  })
}
