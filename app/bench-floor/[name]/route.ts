import { readFile } from 'node:fs/promises'
import path from 'node:path'

// The framework floor of `npm run bench` (BENCHMARKS.md): a route handler of the same production build that does
// nothing but return stored bytes, the very bytes of a public route's answer, which the bench puts in
// BENCH_FLOOR_DIR. Without BENCH_FLOOR_DIR (any server but the bench's) it is a 404.
const stored = new Map<string, Uint8Array<ArrayBuffer>>()

export async function GET(_request: Request, { params }: RouteContext<'/bench-floor/[name]'>): Promise<Response> {
  const dir = process.env.BENCH_FLOOR_DIR
  const { name } = await params
  if (!dir || !/^[a-z0-9-]+$/.test(name)) return new Response(null, { status: 404 })
  let bytes = stored.get(name)
  if (!bytes) {
    bytes = new Uint8Array(await readFile(path.join(dir, name)))
    stored.set(name, bytes)
  }
  return new Response(bytes, { headers: { 'Content-Type': 'application/geo+json' } })
}
