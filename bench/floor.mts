#!/usr/bin/env node
// The machine floor of `npm run bench` (BENCHMARKS.md): a bare node:http server returning stored bytes, the same
// bytes and path as the framework floor (app/api/bench-floor/[name]/route.bench.ts), from memory.
//
//   node --import tsx bench/floor.mts PORT DIR      GET /api/bench-floor/NAME answers the file DIR/NAME
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import path from 'node:path'

const [port, dir] = process.argv.slice(2)
if (!port || !dir) {
  console.error('Usage: node --import tsx bench/floor.mts PORT DIR')
  process.exit(2)
}
const stored = new Map<string, Buffer>()
createServer((request, response) => {
  const name = /^\/api\/bench-floor\/([a-z0-9-]+)$/.exec(request.url ?? '')?.[1]
  if (!name || !existsSync(path.join(dir, name))) return response.writeHead(404).end()
  let bytes = stored.get(name)
  if (!bytes) stored.set(name, (bytes = readFileSync(path.join(dir, name))))
  // A name ending in -br holds brotli bytes (the bench's page asked with Accept-Encoding: br).
  const coding = name.endsWith('-br') ? { 'Content-Encoding': 'br' } : {}
  response.writeHead(200, { 'Content-Type': 'application/geo+json', 'Content-Length': bytes.length, ...coding }).end(bytes)
}).listen(Number(port), '127.0.0.1')
