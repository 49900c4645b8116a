import 'server-only'
import { getConfig } from '../config'
import { contentFromClassic } from '../content/html'
import { lockTables, transaction, type Tx } from '../db'
import { ApiError } from '../http/errors'
import { createTrip } from '../trips/trips'
import { routePrecisionOf } from './location-levels'
import type { Track } from '../trips/track'
import { firstAdministratorId } from '../users'
import { maxPostId, PostBatch, PostSlugs } from './batch'
import { resolveCategoryPaths } from './categories'
import { NotACollection, readCollectionFile } from './collection-file'
import { importCollectionSchema, importFeatureSchema } from './schemas'
import { levelOfNewPost } from './visibility'
import { resolveTagNames } from './tags'

export type ImportOptions = {
  /** email of the author of features that name none; else the first administrator */
  defaultAuthor?: string
  /** called as rows are written: how many of `total` posts are in */
  onProgress?: (done: number, total: number) => void
  /** called every CHECKED_STEP features while they are checked, before any is written, and once all are */
  onChecked?: (checked: number, finished: boolean) => void
  /** how problems name the feature at `index`: "line 7" of a CSV file, "placemark 3" of a KML one; else "feature N" */
  labelOf?: (index: number) => string
  /** problems the file's reader found before the features (lib/places/formats): listed with the import's own */
  refused?: readonly string[]
  /** check and write everything in the transaction, then roll it back: every problem a real import would meet */
  dryRun?: boolean
  /** a GPX or KML file's tracks: written as a trip, which every post of the import belongs to (docs/trips.md) */
  trip?: { title: string; tracks: readonly Track[] }
  /** called once the trip is written (within the transaction: a dry run rolls it back) */
  onTrip?: (trip: { id: number; slug: string }) => void
  /** the `trip` slugs features name that no trip of this site has: those posts are on no trip (a full copy has no tracks) */
  onMissingTrips?: (slugs: string[]) => void
}

/**
 * Where an import's features come from, read anew on each call: once to check them all, once more to write them. So
 * an import holds one feature at a time, not the file: a file of any size can be imported.
 */
export type FeatureSource = () => AsyncIterable<unknown> | Iterable<unknown>

const MAX_LISTED_ERRORS = 20
const CHECKED_STEP = 10_000
const IN_LIST = 10_000

/** The problems of an import: every one counted, the first MAX_LISTED_ERRORS kept to be listed. */
class Problems {
  listed: string[] = []
  count = 0

  add(problem: string): void {
    if (this.count++ < MAX_LISTED_ERRORS) this.listed.push(problem)
  }

  error(): ApiError {
    const more = this.count > MAX_LISTED_ERRORS ? [`…and ${this.count - MAX_LISTED_ERRORS} more`] : []
    return new ApiError('places_invalid_import', ['Nothing was imported:', ...this.listed, ...more].join('\n'))
  }

  throwIfAny(): void {
    if (this.count > 0) throw this.error()
  }
}

function invalidImport(problem: string): ApiError {
  const problems = new Problems()
  problems.add(problem)
  return problems.error()
}

const notACollection = () => invalidImport('the file is not a GeoJSON FeatureCollection ({"type": "FeatureCollection", "features": [...]})')

/** The features of a collection already in memory (the demo's). */
export function featuresOfCollection(input: unknown): FeatureSource {
  const collection = importCollectionSchema.safeParse(input)
  if (!collection.success) throw notACollection()
  const { features } = collection.data
  return () => features
}

/**
 * The features of an import file, parsed as they are read (lib/places/collection-file.ts): one feature is in memory
 * at a time, whatever the file's size. The file must be one JSON object with `"type": "FeatureCollection"` and a
 * `features` array.
 */
export function featuresOfFile(file: string): FeatureSource {
  return async function* () {
    try {
      yield* readCollectionFile(file)
    } catch (error) {
      if (error instanceof NotACollection) throw notACollection()
      if (error instanceof SyntaxError) throw invalidImport(`cannot read ${file} as JSON: ${error.message}`)
      const { code, message } = error as NodeJS.ErrnoException
      throw invalidImport(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : message}`)
    }
  }
}

const featureLabel = (index: number) => `feature ${index}`

/** Thrown inside a dry run's transaction, once everything is written, so that all of it is rolled back. */
class DryRun extends Error {
  constructor(readonly ids: number[]) {
    super('dry run')
  }
}

/** What the check of every feature gathers for the write: a few sets, not the features. */
type Checked = {
  count: number
  /** authors' emails, lower case */
  emails: Set<string>
  withoutAuthor: boolean
  explicitIds: Set<number>
  categoryPaths: Set<string>
  tagNames: Set<string>
  tripSlugs: Set<string>
  /** whether any feature that names no trip of its own is published: a trip of drafts alone is a draft (docs/trips.md) */
  anyPublished: boolean
}

/** Checks every feature; every problem names the feature's index and the field. */
async function check(source: FeatureSource, { onChecked, labelOf = featureLabel, refused = [] }: ImportOptions): Promise<Checked> {
  const problems = new Problems()
  for (const problem of refused) problems.add(problem)
  const checked: Checked = {
    count: 0,
    emails: new Set(),
    withoutAuthor: false,
    explicitIds: new Set(),
    categoryPaths: new Set(),
    tagNames: new Set(),
    tripSlugs: new Set(),
    anyPublished: false,
  }
  const firstWithId = new Map<number, number>()
  for await (const raw of source()) {
    const index = checked.count++
    if (checked.count % CHECKED_STEP === 0) onChecked?.(checked.count, false)
    const parsed = importFeatureSchema.safeParse(raw)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.add(`${labelOf(index)}: ${issue.path.join('.') || 'feature'}: ${issue.message}`)
      continue
    }
    const { id, author, categories, tags, status, trip } = parsed.data.properties
    if (trip !== undefined) checked.tripSlugs.add(trip)
    // Only the posts the file's own trip gets decide whether it is published.
    else if (status === 'publish') checked.anyPublished = true
    if (author) checked.emails.add(author.toLowerCase())
    else checked.withoutAuthor = true
    for (const path of categories) checked.categoryPaths.add(path)
    for (const name of tags) checked.tagNames.add(name)
    if (id === undefined) continue
    const first = firstWithId.get(id)
    if (first !== undefined) problems.add(`${labelOf(index)}: properties.id: ${id} is also the id of ${labelOf(first)}`)
    else firstWithId.set(id, index)
    checked.explicitIds.add(id)
  }
  onChecked?.(checked.count, true)
  problems.throwIfAny()
  return checked
}

/**
 * Imports an import-format FeatureCollection (docs/cli.md) in one transaction: all of it, or nothing. Every feature
 * is checked before the transaction starts. Returns the new post ids in input order.
 */
export async function importPlaces(source: FeatureSource, options: ImportOptions = {}): Promise<number[]> {
  const checked = await check(source, options)
  try {
    return await transaction(
      async (tx) => {
        const ids = await writePosts(tx, source, checked, options)
        if (options.dryRun) throw new DryRun(ids)
        return ids
      },
      { maxWait: 60_000, timeout: 3_600_000 },
    )
  } catch (error) {
    // The ids a real import would have given now: nothing was written.
    if (error instanceof DryRun) return error.ids
    throw error
  }
}

async function writePosts(tx: Tx, source: FeatureSource, checked: Checked, options: ImportOptions): Promise<number[]> {
  // The write lock before reading what the import depends on (free ids, slugs), so no writer slips between.
  await lockTables(tx, ['posts', 'categories', 'tags', 'trips'])
  const authors = await resolveAuthors(tx, checked, options.defaultAuthor)
  const { siteUrl, defaultLocationPrecision } = getConfig()
  const status = checked.count === 0 || checked.anyPublished ? 'publish' : 'draft'
  const trip = options.trip && (await createTrip(tx, { ...options.trip, status, routePrecision: routePrecisionOf(defaultLocationPrecision) }))
  if (trip) options.onTrip?.(trip)
  const taken = await takenIds(tx, checked.explicitIds)
  const categoryIds = await resolveCategoryPaths(tx, checked.categoryPaths)
  const tagIds = await resolveTagNames(tx, [...checked.tagNames])
  const tripIds = await resolveTripSlugs(tx, checked.tripSlugs, options.onMissingTrips)
  let nextId = (await maxPostId(tx)) + 1

  // What only the database can tell (an unknown author, a taken id) is found as the features are written: the
  // transaction then rolls back, and the import reports every such problem.
  const problems = new Problems()
  const label = options.labelOf ?? featureLabel
  const ids: number[] = []
  const now = new Date()
  const batch = new PostBatch(tx, checked.count, (written) => options.onProgress?.(written, checked.count))
  const slugs = new PostSlugs(batch)
  try {
    for await (const raw of source()) {
      const index = ids.length
      const { geometry, properties: p } = importFeatureSchema.parse(raw) // checked: it changes only if the file did
      const email = p.author?.toLowerCase()
      const authorId = email ? authors.byEmail.get(email) : authors.fallback
      if (authorId === undefined) {
        problems.add(
          email
            ? `${label(index)}: properties.author: no user has the email ${email}`
            : `${label(index)}: properties.author: not given, no --author, and there is no administrator to default to`,
        )
      }
      if (p.id !== undefined && taken.has(p.id)) problems.add(`${label(index)}: properties.id: post ${p.id} already exists`)
      if (problems.count > 0) batch.discard()
      while (p.id === undefined && checked.explicitIds.has(nextId)) nextId++
      const id = p.id ?? nextId++
      ids.push(id)
      const post = {
        id,
        type: p.type,
        status: p.status,
        title: p.title,
        slug: await slugs.take(p.type, p.slug ?? p.title),
        content: contentFromClassic(p.content, siteUrl),
        excerpt: p.excerpt,
        publishedAt: p.date ?? now,
        modifiedAt: now,
        authorId: authorId ?? 0,
        latitude: geometry?.coordinates[1] ?? null,
        longitude: geometry?.coordinates[0] ?? null,
        address: p.address,
        locationPrecision: levelOfNewPost({ geoPublic: p.geo_public, precision: p.location_precision }),
        // A feature's own trip before the file's lines: a full copy names each post's.
        tripId: p.trip !== undefined ? (tripIds.get(p.trip) ?? null) : trip ? trip.id : null,
      }
      // A path of no names ("", " > ") names no category.
      await batch.addPost(
        post,
        p.categories.flatMap((path) => categoryIds.get(path) ?? []),
        p.tags.map((name) => tagIds.get(name.toLowerCase())!),
      )
    }
    if (ids.length !== checked.count) {
      problems.add(`the file changed while it was imported: ${checked.count} features, then ${ids.length}`)
      batch.discard()
    }
    await batch.finish()
  } finally {
    await batch.settle() // no write outlives the transaction, whatever ended the import
  }
  problems.throwIfAny()
  return ids
}

/** The ids of the trips of `slugs`; those the site has not are told to `onMissing`. */
async function resolveTripSlugs(tx: Tx, slugs: Set<string>, onMissing?: (slugs: string[]) => void): Promise<Map<string, number>> {
  if (slugs.size === 0) return new Map()
  const rows = await tx.trip.findMany({ where: { slug: { in: [...slugs] } }, select: { id: true, slug: true } })
  const ids = new Map(rows.map((row) => [row.slug, row.id]))
  const missing = [...slugs].filter((slug) => !ids.has(slug))
  if (missing.length > 0) onMissing?.(missing)
  return ids
}

/** The authors' ids by email, and the author of features that name none; an unknown --author is an error. */
async function resolveAuthors(tx: Tx, checked: Checked, defaultAuthor?: string): Promise<{ byEmail: Map<string, number>; fallback?: number }> {
  const emails = new Set(checked.emails)
  if (defaultAuthor) emails.add(defaultAuthor.toLowerCase())
  const users = await findIn([...emails], (some) => tx.user.findMany({ where: { email: { in: some } }, select: { id: true, email: true } }))
  const byEmail = new Map(users.map((user) => [user.email, user.id]))
  if (defaultAuthor) {
    const fallback = byEmail.get(defaultAuthor.toLowerCase())
    if (fallback === undefined) throw invalidImport(`--author: no user has the email ${defaultAuthor}`)
    return { byEmail, fallback }
  }
  if (!checked.withoutAuthor) return { byEmail }
  return { byEmail, fallback: await firstAdministratorId(tx) }
}

/** Which of the ids the features ask for are already posts'. */
async function takenIds(tx: Tx, explicitIds: Set<number>): Promise<Set<number>> {
  const rows = await findIn([...explicitIds], (some) => tx.post.findMany({ where: { id: { in: some } }, select: { id: true } }))
  return new Set(rows.map((row) => row.id))
}

/** The rows `find` gives for all of `values`, asked IN_LIST values at a time (a query's list of values is bounded). */
async function findIn<T, R>(values: T[], find: (some: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = []
  for (let start = 0; start < values.length; start += IN_LIST) rows.push(...(await find(values.slice(start, start + IN_LIST))))
  return rows
}
