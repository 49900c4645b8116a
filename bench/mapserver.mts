// MapServer 8.0 beside Places (issue 18): the bench's public places, exported with `places export`, served by
// Debian's MapServer as OGC API – Features, for `npm run bench -- --mapserver` (BENCHMARKS.md, "Places beside MapServer").
//
// As the issue measured it: Debian's `mapserv` (cgi-mapserver), which speaks FastCGI itself (`mapserv -v`:
// SUPPORTS=FASTCGI), two processes, one GeoPackage. spawn-fcgi opens the socket and execs multiwatch in place
// (`-n`), which forks two mapserv on it and stops them with itself: one process of ours to stop, no daemons left
// behind, and the two share the socket's queue as FastCGI workers do. nginx (`fastcgi_pass`) is the HTTP front:
// mapserv speaks no HTTP, and nginx is the lightest server here that does. nginx and both mapserv are pinned to the
// core the Places server gets, so that each side has one core and the load generator the other.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { NGINX, nginxConf } from '../deploy/nginx.mts'

const MAPSERV = '/usr/bin/mapserv'
const PROGRAMS = { mapserv: 'cgi-mapserver', 'spawn-fcgi': 'spawn-fcgi', multiwatch: 'multiwatch', ogr2ogr: 'gdal-bin', [NGINX]: 'nginx' }
/** The map's alias in MapServer's CONFIG file: the first segment of every path (`/places/ogcapi/...`). */
const ALIAS = 'places'

/** Why MapServer cannot run here (what to install), or undefined when it can. */
export function mapServerProblem(): string | undefined {
  const missing = Object.entries(PROGRAMS).filter(([program]) => spawnSync(program, ['-h']).error !== undefined)
  if (missing.length > 0) return `apt-get install ${[...new Set(missing.map(([, pkg]) => pkg))].join(' ')}`
  const version = spawnSync(MAPSERV, ['-v'], { encoding: 'utf8' }).stdout
  if (!/SUPPORTS=OGCAPI_SERVER.*SUPPORTS=FASTCGI/.test(version)) return `${MAPSERV} lacks OGC API or FastCGI (mapserv -v: ${version.trim()})`
  return undefined
}

/**
 * The places of `geojson` (a `places export --post-type post` file) in a GeoPackage layer `post` with a spatial index:
 * the post id as its `id` field (what the items' ids are, `gml_featureid`) and as its primary key; title, address and
 * the post page's url as Places builds it (`siteUrl/type/slug`, lib/places/geojson.ts). An exported post without a
 * location is no feature of the OGC collection, so it is left out. `id` is indexed, as anyone serving items by id would.
 */
function writeGeoPackage(geojson: string, gpkg: string, siteUrl: string): void {
  const layer = path.basename(geojson, '.geojson')
  const sql = `SELECT id AS fid, id, title, address, '${siteUrl}/' || type || '/' || slug AS url, geometry FROM "${layer}" WHERE geometry IS NOT NULL`
  const steps: [string, string[]][] = [
    ['ogr2ogr', ['-f', 'GPKG', gpkg, geojson, '-nln', 'post', '-dialect', 'sqlite', '-sql', sql, '-lco', 'SPATIAL_INDEX=YES']],
    ['ogrinfo', [gpkg, '-sql', 'CREATE INDEX post_id ON post(id)']],
  ]
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.error?.message}`)
  }
}

/** MapServer 8.0's CONFIG file (MAPSERVER_CONFIG_FILE) and the mapfile: one layer per collection, here `post`. */
function writeMapfile(dir: string, gpkg: string, url: string): { config: string } {
  const mapfile = path.join(dir, 'places.map')
  writeFileSync(
    mapfile,
    `MAP
  NAME "${ALIAS}"
  EXTENT -180 -90 180 90
  UNITS DD
  PROJECTION "init=epsg:4326" END
  WEB
    METADATA
      "ows_title" "Places"
      "oga_onlineresource" "${url}/${ALIAS}/ogcapi"
      "oga_html_template_directory" "/usr/share/mapserver/ogcapi/templates/html-plain/"
      "oga_enable_request" "*"
    END
  END
  LAYER
    NAME "post"
    TYPE POINT
    STATUS ON
    CONNECTIONTYPE OGR
    CONNECTION "${gpkg}"
    DATA "post"
    PROJECTION "init=epsg:4326" END
    METADATA
      "ows_title" "post"
      "gml_include_items" "all"
      "gml_exclude_items" "id"
      "gml_featureid" "id"
      "gml_types" "auto"
    END
    TEMPLATE "VOID"
  END
END
`,
  )
  const config = path.join(dir, 'mapserver.conf')
  writeFileSync(config, `CONFIG\n  ENV\n    MS_MAP_NO_PATH "1"\n  END\n  MAPS\n    ${ALIAS} "${mapfile}"\n  END\nEND\n`)
  return { config }
}

function writeNginxConf(dir: string, port: number, socket: string): string {
  const conf = path.join(dir, 'nginx.conf')
  writeFileSync(
    conf,
    nginxConf(
      dir,
      `server {
    listen 127.0.0.1:${port};
    location / {
      include /etc/nginx/fastcgi_params;
      # mapserv reads the map's alias and the OGC API path from PATH_INFO.
      fastcgi_param SCRIPT_NAME "";
      fastcgi_param PATH_INFO $uri;
      fastcgi_pass unix:${socket};
    }
  }`,
    ),
  )
  return conf
}

/** `command args` pinned to `cpu` (when taskset is there), in a process group of its own so that it stops whole. */
function startPinned(command: string, args: string[], cpu: number | undefined, env: NodeJS.ProcessEnv): ChildProcess {
  const pinned = cpu !== undefined && spawnSync('taskset', ['-c', String(cpu), 'true']).status === 0
  const [file, argv] = pinned ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args]
  return spawn(file, argv, { env, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
}

async function stopGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = once(child, 'exit')
  process.kill(-child.pid, signal)
  await exited
}

/**
 * Serves the places of `geojson` with MapServer behind nginx on 127.0.0.1:`port`, its files in `dir`; resolves once
 * it answers, with the OGC API's root (`url`, then `/collections/post/items`…) and `stop`, which always stops both.
 */
export async function startMapServer({
  geojson,
  dir,
  port,
  siteUrl,
  cpu,
}: {
  geojson: string
  dir: string
  port: number
  siteUrl: string
  cpu?: number
}): Promise<{ url: string; stop: () => Promise<void> }> {
  const gpkg = path.join(dir, 'places.gpkg')
  writeGeoPackage(geojson, gpkg, siteUrl)
  const base = `http://127.0.0.1:${port}`
  const { config } = writeMapfile(dir, gpkg, base)
  const socket = path.join(dir, 'mapserv.sock')
  const env = { ...process.env, MAPSERVER_CONFIG_FILE: config } // where 8.0 looks for its CONFIG file
  const mapserv = startPinned('spawn-fcgi', ['-n', '-s', socket, '--', '/usr/bin/multiwatch', '-f', '2', '--', MAPSERV], cpu, env)
  const nginx = startPinned(NGINX, ['-p', dir, '-c', writeNginxConf(dir, port, socket)], cpu, process.env)
  const stop = async () => {
    await stopGroup(nginx, 'SIGQUIT')
    // mapserv under FastCGI takes SIGTERM as "finish after the next request" (an idle one outlives it); it holds
    // nothing to flush (it only reads the GeoPackage), so the group, multiwatch and both, is killed outright.
    await stopGroup(mapserv, 'SIGKILL')
  }
  const url = `${base}/${ALIAS}/ogcapi`
  try {
    for (let attempt = 0; ; attempt++) {
      for (const [name, child] of [
        ['spawn-fcgi', mapserv],
        ['nginx', nginx],
      ] as const) {
        if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${readLog(dir)}`)
      }
      const response = await fetch(`${url}/collections/post?f=json`).catch(() => undefined)
      if (response?.ok) break
      if (attempt > 100) throw new Error(`MapServer did not answer within 10 s (${response?.status ?? 'no answer'}): ${readLog(dir)}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { url, stop }
}

function readLog(dir: string): string {
  try {
    return readFileSync(path.join(dir, 'error.log'), 'utf8').slice(-2000)
  } catch {
    return '(no nginx log)'
  }
}

type Feature = { id: string | number; geometry: { coordinates: number[] } | null; properties: Record<string, unknown> }
type Items = { features: Feature[]; numberMatched?: number; numberReturned?: number }

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`)
  return (await response.json()) as T
}

/** Every id a query matches, paged 1,000 at a time (Places' largest page) up to numberMatched: MapServer answers an
 * offset at or past it with a 400. */
async function allIds(itemsUrl: string, query: string): Promise<Set<string>> {
  const ids = new Set<string>()
  for (let offset = 0; ; offset += 1000) {
    const page = await getJson<Items>(`${itemsUrl}${query}&limit=1000&offset=${offset}`)
    for (const feature of page.features) ids.add(String(feature.id))
    if (page.features.length === 0 || offset + 1000 >= (page.numberMatched ?? 0)) return ids
  }
}

/** The properties the GeoPackage layer holds (writeGeoPackage); Places' features have more (the date, for one). */
const COMPARED = ['title', 'address', 'url'] as const

/** What one feature shows of what both servers have, in one form: the id as text, the point, the compared properties. */
const shown = (feature: Feature) => JSON.stringify([String(feature.id), feature.geometry?.coordinates, COMPARED.map((name) => feature.properties[name])])

/**
 * Whether MapServer (`mapserver`: its OGC API root, with `f=json` as `?f=json&`) answers the bench's three requests
 * with the features Places (`places`: its /ogc) gives: the counts, the sets of ids, and each feature of MapServer's
 * first page and of `sampleIds` compared on what both hold (COMPARED). One line per check, each starting "same" or "differs".
 */
export async function compareWithPlaces(places: string, mapserver: string, sampleIds: number[]): Promise<string[]> {
  const lines: string[] = []
  const check = (same: boolean, what: string) => lines.push(`${same ? 'same' : 'differs'}: ${what}`)
  const [p, m] = [`${places}/collections/post/items`, `${mapserver}/collections/post/items`]

  const [pPage, mPage] = [await getJson<Items>(`${p}?limit=100`), await getJson<Items>(`${m}?f=json&limit=100`)]
  check(pPage.numberMatched === mPage.numberMatched, `items?limit=100 numberMatched: Places ${pPage.numberMatched}, MapServer ${mPage.numberMatched}`)
  check(pPage.numberReturned === mPage.numberReturned, `items?limit=100 numberReturned: Places ${pPage.numberReturned}, MapServer ${mPage.numberReturned}`)
  const pFirst = new Set(pPage.features.map((f) => String(f.id)))
  const shared = mPage.features.filter((f) => pFirst.has(String(f.id))).length
  check(shared === pFirst.size, `items?limit=100 first page: ${shared} of its 100 ids in both (Places newest first, MapServer ${describeOrder(mPage)})`)

  const box = '?bbox=2,48,3,49'
  const [pBox, mBox] = [await getJson<Items>(`${p}${box}&limit=10`), await getJson<Items>(`${m}${box}&f=json&limit=10`)]
  check(pBox.numberMatched === mBox.numberMatched, `items?limit=10&bbox=2,48,3,49 numberMatched: Places ${pBox.numberMatched}, MapServer ${mBox.numberMatched}`)
  const [pIds, mIds] = [await allIds(p, box), await allIds(m, `${box}&f=json`)]
  const onlyIn = (a: Set<string>, b: Set<string>) => [...a].filter((id) => !b.has(id))
  const [onlyP, onlyM] = [onlyIn(pIds, mIds), onlyIn(mIds, pIds)]
  check(
    onlyP.length + onlyM.length === 0,
    `bbox=2,48,3,49, every page: ${pIds.size} ids from Places, ${mIds.size} from MapServer` +
      (onlyP.length + onlyM.length ? `; only in Places ${onlyP.slice(0, 5).join(' ')}, only in MapServer ${onlyM.slice(0, 5).join(' ')}` : ''),
  )

  const past = `${box}&limit=10&offset=${pBox.numberMatched ?? 0}`
  const [pPast, mPast] = [await fetch(`${p}${past}`), await fetch(`${m}${past}&f=json`)]
  check(pPast.status === mPast.status, `a page past the last (offset=numberMatched): Places ${pPast.status}, MapServer ${mPast.status}`)
  await Promise.all([pPast.arrayBuffer(), mPast.arrayBuffer()])

  const ids = [...new Set([...mPage.features.map((f) => String(f.id)), ...sampleIds.map(String)])]
  const differing: string[] = []
  for (const id of ids) {
    const [pFeature, mFeature] = [await getJson<Feature>(`${p}/${id}`), await getJson<Feature>(`${m}/${id}?f=json`)]
    if (shown(pFeature) !== shown(mFeature)) differing.push(`${id}: Places ${shown(pFeature)}, MapServer ${shown(mFeature)}`)
  }
  check(
    differing.length === 0,
    `items/{id} for ${ids.length} ids (point, title, url, address)${differing.length ? `:\n  ${differing.slice(0, 3).join('\n  ')}` : ''}`,
  )
  const [pOne, mOne] = [await getJson<Feature>(`${p}/${ids[0]}`), await getJson<Feature>(`${m}/${ids[0]}?f=json`)]
  check(typeof pOne.id === typeof mOne.id, `feature id's JSON type: Places ${typeof pOne.id}, MapServer ${typeof mOne.id}`)
  return lines
}

function describeOrder(page: Items): string {
  const ids = page.features.map((f) => Number(f.id))
  return ids.every((id, i) => i === 0 || id > (ids[i - 1] ?? 0)) ? 'by id ascending' : 'in another order'
}
