import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { CODING_HEADER } from '@/lib/http/content-encoding'

// The framework floor of `npm run bench` (BENCHMARKS.md): a route handler that does nothing but return stored bytes,
// the very bytes of a public route's answer, which the bench puts in BENCH_FLOOR_DIR. It is in the bench's own build
// only (.next-bench): next.config.mjs adds the `bench.ts` page extension when BENCH_FLOOR_DIR is set. Under /api/, as
// the public routes, it is outside proxy.ts's matcher.
const stored = new Map<string, Uint8Array<ArrayBuffer>>()

export async function GET(_request: Request, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const dir = process.env.BENCH_FLOOR_DIR
  const { name } = await params
  if (!dir || !/^[a-z0-9-]+$/.test(name)) return new Response(null, { status: 404 })
  let bytes = stored.get(name)
  if (!bytes) {
    bytes = new Uint8Array(await readFile(path.join(dir, name)))
    stored.set(name, bytes)
  }
  // A name ending in -br holds brotli bytes, sent as publicResponse sends them (lib/http/content-encoding.ts).
  const coding: Record<string, string> = name.endsWith('-br') ? { [CODING_HEADER]: 'br' } : {}
  return new Response(bytes, { headers: { 'Content-Type': 'application/geo+json', ...coding } })
}
