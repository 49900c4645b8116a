#!/usr/bin/env node
// One autocannon run, in its own process so that the bench can pin it to another core than the server's:
//
//   node bench/load.mjs OPTIONS.json
//
// OPTIONS.json: {"url": "http://127.0.0.1:3199", "paths": ["/places/v1/geojson"], "connections": 16, "duration": 10}
// (a file, not an argument: a list of 100,000 paths is longer than one argument may be).
// `paths` are requested in turn, one after the other across all connections (so a list of many post ids is walked,
// not one cached row). Prints autocannon's result as JSON on stdout.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const autocannon = createRequire(import.meta.url)('autocannon')
const { url, paths, connections, duration } = JSON.parse(readFileSync(process.argv[2], 'utf8'))

let next = 0
const result = await autocannon({
  url,
  connections,
  duration,
  requests: [{
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }),
  }],
})
process.stdout.write(JSON.stringify(result))
