// Writes that do not stall the map (issue 15): the map's views while the data changes, each write made through a
// database connection of the bench's own, as another instance or the command line would write, so that the server
// learns of it only from the data version and the change log (README.md, "The map's index after a write").
//   - the first map view after one place moved: the index of every place must take the move in;
//   - the first map view after `places import` of one post, beside the server: as an edit, not a whole new index;
//   - one write a second for WRITE_SECONDS (a new title, a place moved, a new post, that post deleted, a place
//     hidden), while one visitor asks for map views one after the other: their latencies.
// Run by scripts/bench.mts, after the server has answered the map's first view.
import Database from 'better-sqlite3'
import pg from 'pg'
import type { BBox } from '../lib/places/schemas.ts'
import { percentile, round2 } from './stats.mts'

/** The targets at 1,000,000 places: the first view after an edit, and the views' p99 under writes, under 50 ms. */
export const WRITE_TARGET_MS = 50
export const MOVES = 40
const IMPORTS = 15
/** The seed of the order of the public places' ids that the bench walks and moves (scripts/bench.mts, shuffle). */
export const PUBLIC_IDS_SEED = 2
const WRITE_SECONDS = 60

/** Map views as the home page asks for them: the world, Europe, Paris and a part of it (a generated city). */
export const MAP_VIEWS: { zoom: number; bbox?: BBox }[] = [
  { zoom: 2 },
  { zoom: 5, bbox: [-10, 35, 30, 60] },
  { zoom: 10, bbox: [2.0, 48.6, 2.7, 49.1] },
  { zoom: 13, bbox: [2.3, 48.83, 2.4, 48.88] },
]
const VIEWS = MAP_VIEWS.map(({ zoom, bbox }) => `cluster=true&zoom=${zoom}${bbox ? `&bbox=${bbox.join(',')}` : ''}`)

type FirstViews = { samples: number; p50Ms: number; p90Ms: number }
export type WriteFigures = {
  move: FirstViews
  smallImport: FirstViews
  underWrites: { writes: number; views: number; p50Ms: number; p99Ms: number; maxMs: number }
}

/** A connection of the bench's own; SQL with $1, $2… (each once, in order), which SQLite is given as ?. */
type Writer = { run: (sql: string, params: unknown[]) => Promise<{ id: number }[]>; close: () => Promise<void> }

async function writerOf(dialect: 'sqlite' | 'postgres', databaseUrl: string): Promise<Writer> {
  if (dialect === 'sqlite') {
    const db = new Database(databaseUrl.replace(/^file:/, ''), { timeout: 10_000 })
    return {
      run: (sql, params) => {
        const statement = db.prepare(sql.replace(/\$\d+/g, '?'))
        return Promise.resolve(statement.reader ? (statement.all(...params) as { id: number }[]) : (statement.run(...params), []))
      },
      close: () => Promise.resolve(void db.close()),
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  return { run: async (sql, params) => (await client.query<{ id: number }>(sql, params)).rows, close: () => client.end() }
}

async function view(baseUrl: string, query: string): Promise<number> {
  const started = performance.now()
  const response = await fetch(`${baseUrl}/places/v1/geojson?${query}`)
  await response.arrayBuffer()
  if (!response.ok) throw new Error(`${query} answered ${response.status}`)
  return performance.now() - started
}

/** The i-th move's change of latitude: about 100 m, north then back. */
export const moveDegrees = (i: number) => (i % 2 ? -0.001 : 0.001)

/** Moves a public place by about 100 m, north then back. */
const move = (writer: Writer, id: number, i: number) => {
  const by = moveDegrees(i)
  return writer.run('UPDATE posts SET latitude = latitude + $1, public_latitude = public_latitude + $2 WHERE id = $3', [by, by, id])
}

const firstViews = (times: number[]): FirstViews => ({ samples: times.length, p50Ms: round2(percentile(times, 0.5)), p90Ms: round2(percentile(times, 0.9)) })

/** `importOne` runs `places import` of a file of one post. */
export async function writesBesideViews(
  baseUrl: string,
  dialect: 'sqlite' | 'postgres',
  databaseUrl: string,
  publicIds: number[],
  importOne: () => Promise<unknown>,
): Promise<WriteFigures> {
  const writer = await writerOf(dialect, databaseUrl)
  try {
    for (const query of VIEWS) await view(baseUrl, query)
    const moves: number[] = []
    for (let i = 0; i < MOVES; i++) {
      await move(writer, publicIds[i % publicIds.length]!, i)
      moves.push(await view(baseUrl, VIEWS[0]!))
    }
    const imports: number[] = []
    for (let i = 0; i < IMPORTS; i++) {
      await importOne()
      imports.push(await view(baseUrl, VIEWS[0]!))
    }

    // One write a second, of each kind in turn; a visitor's views meanwhile, one after the other.
    let [writes, step, newId] = [0, 0, 0]
    const write = async () => {
      const id = publicIds[(MOVES + step) % publicIds.length]!
      const kind = step++ % 5
      if (kind === 0) await writer.run('UPDATE posts SET title = $1 WHERE id = $2', [`Written ${step}`, id])
      else if (kind === 1) await move(writer, id, step)
      else if (kind === 2) {
        const rows = await writer.run(
          `INSERT INTO posts (type, status, title, slug, published_at, modified_at, author_id, latitude, longitude, address,
             location_precision, public_latitude, public_longitude, public_address)
           SELECT type, status, $1, $2, published_at, modified_at, author_id, latitude + 0.01, longitude + 0.01, address,
             location_precision, public_latitude + 0.01, public_longitude + 0.01, public_address
           FROM posts WHERE id = $3 RETURNING id`,
          [`New ${step}`, `bench-new-${step}`, id],
        )
        newId = rows[0]!.id
      } else if (kind === 3) await writer.run('DELETE FROM posts WHERE id = $1', [newId])
      else
        await writer.run(`UPDATE posts SET location_precision = 'hidden', public_latitude = NULL, public_longitude = NULL, public_address = '' WHERE id = $1`, [
          id,
        ])
      writes++
    }
    const times: number[] = []
    const started = performance.now()
    let nextWrite = started
    while (performance.now() - started < WRITE_SECONDS * 1000) {
      if (performance.now() >= nextWrite) {
        await write()
        nextWrite += 1000
      }
      times.push(await view(baseUrl, VIEWS[times.length % VIEWS.length]!))
    }
    return {
      move: firstViews(moves),
      smallImport: firstViews(imports),
      underWrites: {
        writes,
        views: times.length,
        p50Ms: round2(percentile(times, 0.5)),
        p99Ms: round2(percentile(times, 0.99)),
        maxMs: round2(percentile(times, 1)),
      },
    }
  } finally {
    await writer.close()
  }
}

/** The figures beside the targets (which are for 1,000,000 places), PASS or FAIL. */
export function writeLines(places: number, { move, smallImport, underWrites }: WriteFigures): string[] {
  const target = (ms: number) => (places === 1_000_000 ? `; target < ${WRITE_TARGET_MS} ms ${ms < WRITE_TARGET_MS ? 'PASS' : 'FAIL'}` : '')
  return [
    `  the first map view (the world, zoom 2) after one place moved (${move.samples} moves): p50 ${move.p50Ms} ms${target(move.p50Ms)}, p90 ${move.p90Ms} ms`,
    `  the first map view (the world, zoom 2) after \`places import\` of one post (${smallImport.samples} imports): p50 ${smallImport.p50Ms} ms${target(smallImport.p50Ms)}, p90 ${smallImport.p90Ms} ms`,
    `  map views one after another, ${underWrites.writes} writes in ${WRITE_SECONDS} s (a title, a move, a new post, a deletion, a place hidden): ` +
      `${underWrites.views} views, p50 ${underWrites.p50Ms} ms, p99 ${underWrites.p99Ms} ms${target(underWrites.p99Ms)}, max ${underWrites.maxMs} ms`,
    ...(places === 1_000_000 ? [] : ['  (the targets are for 1,000,000 places)']),
  ]
}
