import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, test } from 'node:test'
import Database from 'better-sqlite3'
import { ExifTool } from 'exiftool-vendored'
import pg from 'pg'
import { verifyPassword } from '../../lib/auth/passwords'
import { places as placesIn, placesProcess, type Run } from '../support/cli'
import { createTestDatabase, databaseKinds, type TestDatabase } from '../support/databases'
import { queryRows } from '../support/sql'

// The command line on real databases: each command as `npx places` runs it (bin/cli.ts's `main`), in a process kept per
// database (test/support/cli.ts); as a process of its own (`node bin/places.mjs …`) where standard input or a terminal
// is what is tested.

/** `places ARGS` on the database at `url` (test/support/cli.ts: bin/cli.ts's `main` in a process kept for it). */
function places(url: string, ...args: string[]): Promise<Run> {
  return placesIn({ ...process.env, DATABASE_URL: url, SITE_URL: 'http://places.test' }, ...args)
}

/** `node bin/places.mjs ARGS`, as `npx places` runs, with `input` on its standard input (a pipe, not a terminal). */
function placesWithInput(url: string, input: string, ...args: string[]): Run {
  return placesProcess({ ...process.env, DATABASE_URL: url, SITE_URL: 'http://places.test' }, args, input)
}

/** Whether `password` is the stored password of the user, read from the database itself. */
async function hasPassword(url: string, email: string, password: string): Promise<boolean> {
  const sql = 'SELECT password_hash AS hash FROM users WHERE email = '
  let row: { hash: string | null } | undefined
  if (url.startsWith('file:')) {
    const db = new Database(url.slice('file:'.length), { readonly: true })
    row = db.prepare(`${sql}?`).get(email) as typeof row
    db.close()
  } else {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    row = (await client.query(`${sql}$1`, [email])).rows[0] as typeof row
    await client.end()
  }
  assert.ok(row, `no user ${email}`)
  return row.hash !== null && verifyPassword(password, row.hash)
}

/**
 * The command on a pseudo-terminal (util-linux's `script`), as a person runs it: `answers` are typed, each once
 * the prompt before it is shown; returns everything the terminal showed. Null where `script` is missing.
 */
async function placesOnTerminal(
  url: string,
  args: string[],
  answers: { after: RegExp; type: string }[],
): Promise<{ status: number | null; screen: string } | null> {
  if (spawnSync('script', ['--version']).status !== 0) return null
  const command = ['node', 'bin/places.mjs', ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(' ')
  const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, DATABASE_URL: url, SITE_URL: 'http://places.test' } })
  let screen = ''
  let next = 0
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk
    // Typed only once the prompt shows: before that the terminal is still in its echoing mode, as for a person.
    const answer = answers[next]
    if (answer && answer.after.test(screen.slice(screen.lastIndexOf('\n') + 1))) {
      next++
      child.stdin.write(answer.type)
    }
  })
  const status = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { status, screen }
}

function ok(run: Run): string {
  assert.equal(run.status, 0, `exit ${run.status}: ${run.stderr}`)
  return run.stdout
}

const dir = mkdtempSync(path.join(tmpdir(), 'places-cli-'))
after(() => rmSync(dir, { recursive: true, force: true }))
function file(name: string, content: unknown): string {
  const target = path.join(dir, name)
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content))
  return target
}

const point = (lng: number, lat: number) => ({ type: 'Point', coordinates: [lng, lat] })
const places3 = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: point(2.2945, 48.8584),
      properties: { title: 'Eiffel Tower', address: 'Paris', categories: ['Europe > France > Paris', 'Landmarks'], date: '2024-05-01T10:00:00Z' },
    },
    { type: 'Feature', geometry: null, properties: { id: 500, title: 'Nowhere', status: 'draft', content: 'no place' } },
    {
      type: 'Feature',
      geometry: point(139.7454, 35.6586),
      properties: {
        title: 'Tokyo Tower',
        type: 'landmark',
        address: 'Shibakoen, Minato',
        geo_public: false,
        categories: ['Asia > Japan'],
        slug: 'Tokyo Tower',
      },
    },
  ],
}

/** A usage line's command: its words up to the first argument or option (`places media import --post ID` → `media import`). */
function commandOf(usage: string): string {
  const words = usage.replace(/^places /, '').split(' ')
  const end = words.findIndex((word) => !/^[a-z][a-z-]*$/.test(word))
  return words.slice(0, end === -1 ? undefined : end).join(' ')
}

/** The commands the documentation lists: the table of README's "Command line", which docs/cli.md points to. */
function documentedCommands(): string[] {
  const readme = readFileSync('README.md', 'utf8')
  const section = readme.slice(readme.indexOf('\n## Command line\n'), readme.indexOf('\n## ', readme.indexOf('\n## Command line\n') + 1))
  return [...section.matchAll(/^\| `(places [^`]+)` \|/gm)].map((match) => commandOf(match[1]!))
}

test('help lists every command; mistakes in the call exit 2 with the usage', async () => {
  const url = `file:${path.join(dir, 'help.db')}`
  const help = ok(await places(url, '--help'))
  for (const command of ['migrate', 'seed', 'user create', 'app-password create', 'app-password list', 'app-password revoke', 'import', 'export']) {
    assert.match(help, new RegExp(`places ${command}`), command)
  }
  // Every command the help lists is documented, and every documented command is in the help and has its own.
  const documented = documentedCommands()
  assert.ok(documented.length >= 12, `README lists ${documented.length} commands`)
  // A command of two forms (locate) has a line for each in both.
  const listed = [...help.matchAll(/^ {2}(places \S.*)$/gm)].map((match) => commandOf(match[1]!.split(/ {2,}/)[0]!))
  assert.deepEqual([...listed].sort(), [...documented].sort(), 'the commands of --help are those README documents')
  for (const command of documented) {
    assert.match(ok(await places(url, ...command.split(' '), '--help')), new RegExp(`^Usage: places ${command}( |$)`, 'm'), command)
  }
  assert.equal((await places(url)).status, 2)
  const unknown = await places(url, 'frobnicate')
  assert.equal(unknown.status, 2)
  assert.match(unknown.stderr, /unknown command "frobnicate"/)
  assert.match(ok(await places(url, 'import', '--help')), /Usage: places import FILE \[--author E\] \[--columns FIELD=COLUMN,...\] \[--dry-run\]/)
  const missing = await places(url, 'user', 'create', '--role', 'author')
  assert.equal(missing.status, 2)
  assert.match(missing.stderr, /--email is required/)
  assert.equal((await places(url, 'import', 'a.json', 'b.json')).status, 2)
  for (const command of ['create', 'set-password']) {
    const usage = ok(await places(url, 'user', command, '--help'))
    assert.match(usage, /--password-stdin/, command)
    assert.match(usage, /asked for on the terminal, without echo/, command)
    assert.match(usage, /--password P works too, but is unsafe: .*process list \(ps\)/s, command)
  }
  assert.equal((await places(url, 'export', '--bogus')).status, 2)
})

for (const kind of databaseKinds) {
  describe(`command line on ${kind}`, () => {
    let db: TestDatabase
    before(async () => {
      db = await createTestDatabase(kind)
    })
    after(() => db.drop())

    test('migrate creates the schema once', async () => {
      assert.match(ok(await places(db.url, 'migrate')), /Applied 0001_init\.sql/)
      assert.match(ok(await places(db.url, 'migrate')), /up to date/)
    })

    test('user create prints the id; bad input is refused with the reason', async () => {
      assert.match(
        ok(await places(db.url, 'user', 'create', '--email', 'Admin@Example.org', '--password', 'long enough', '--role', 'administrator')),
        /^\d+\n$/,
      )
      const again = await places(db.url, 'user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'editor')
      assert.equal(again.status, 1)
      assert.match(again.stderr, /already exists/)
      const bad = await places(db.url, 'user', 'create', '--email', 'not-an-email', '--password', 'short', '--role', 'king')
      assert.equal(bad.status, 1)
      assert.match(bad.stderr, /email: .*password: must be at least 8 characters.*role: must be one of administrator, editor, author, contributor, subscriber/)
      assert.match(
        ok(await places(db.url, 'user', 'create', '--email', 'author@example.org', '--password', 'long enough', '--role', 'author', '--json')),
        /^\{"id":\d+\}\n$/,
      )
    })

    test('user create and set-password read the password from standard input with --password-stdin, one line', async () => {
      assert.match(
        ok(placesWithInput(db.url, 'from stdin one\n', 'user', 'create', '--email', 'stdin@example.org', '--role', 'author', '--password-stdin')),
        /^\d+\n$/,
      )
      assert.ok(await hasPassword(db.url, 'stdin@example.org', 'from stdin one'), 'the trailing newline is dropped')
      for (const [input, password] of [
        ['from stdin two\r\n', 'from stdin two'],
        ['no newline at all', 'no newline at all'],
        ['  spaces kept  \n', '  spaces kept  '],
      ] as const) {
        assert.match(
          ok(placesWithInput(db.url, input, 'user', 'set-password', '--email', 'stdin@example.org', '--password-stdin')),
          /Password set for stdin@example\.org/,
        )
        assert.ok(await hasPassword(db.url, 'stdin@example.org', password), JSON.stringify(input))
      }
      for (const [input, message] of [
        ['two\nlines\n', /standard input must hold the password alone, on one line/],
        ['', /standard input holds no password/],
        ['\n', /standard input holds no password/],
      ] as const) {
        const refused = placesWithInput(db.url, input, 'user', 'set-password', '--email', 'stdin@example.org', '--password-stdin')
        assert.equal(refused.status, 2, JSON.stringify(input))
        assert.match(refused.stderr, message)
      }
      assert.ok(await hasPassword(db.url, 'stdin@example.org', '  spaces kept  '), 'a refused call changes nothing')
      const both = placesWithInput(
        db.url,
        'long enough\n',
        'user',
        'set-password',
        '--email',
        'stdin@example.org',
        '--password-stdin',
        '--password',
        'long enough',
      )
      assert.equal(both.status, 2)
      assert.match(both.stderr, /give --password or --password-stdin, not both/)
    })

    test('without --password or --password-stdin and without a terminal: exit 2 saying how to give one; nothing changes', async () => {
      const create = await places(db.url, 'user', 'create', '--email', 'nopassword@example.org', '--role', 'author')
      assert.equal(create.status, 2)
      assert.match(create.stderr, /no password: pass it on standard input with --password-stdin, or run this on a terminal to be asked for it/)
      assert.match(create.stderr, /Usage: places user create/)
      const set = await places(db.url, 'user', 'set-password', '--email', 'stdin@example.org')
      assert.equal(set.status, 2)
      assert.match(set.stderr, /no password: pass it on standard input with --password-stdin/)
      assert.ok(await hasPassword(db.url, 'stdin@example.org', '  spaces kept  '))
      assert.equal(
        (await places(db.url, 'user', 'create', '--email', 'nopassword@example.org', '--role', 'author', '--password', 'long enough')).status,
        0,
        'the user was not created before',
      )
    })

    test('on a terminal the password is asked for twice, never shown', async (t) => {
      const typed = 'typed on the terminal'
      ok(await places(db.url, 'user', 'create', '--email', 'terminal@example.org', '--role', 'author', '--password', 'long enough'))
      const asked = await placesOnTerminal(
        db.url,
        ['user', 'set-password', '--email', 'terminal@example.org'],
        [
          { after: /^Password: $/, type: `${typed}\r` },
          { after: /^Password again: $/, type: `${typed}\r` },
        ],
      )
      if (asked === null) return t.skip('util-linux script is not installed')
      assert.equal(asked.status, 0, asked.screen)
      assert.match(asked.screen, /Password set for terminal@example\.org/)
      assert.ok(!asked.screen.includes(typed), `the password was echoed: ${JSON.stringify(asked.screen)}`)
      assert.ok(await hasPassword(db.url, 'terminal@example.org', typed))
      const differ = await placesOnTerminal(
        db.url,
        ['user', 'set-password', '--email', 'terminal@example.org'],
        [
          { after: /^Password: $/, type: 'first of two tries\r' },
          { after: /^Password again: $/, type: 'second of two tries\r' },
        ],
      )
      assert.equal(differ!.status, 2)
      assert.match(differ!.screen, /the two passwords differ; nothing was changed/)
      assert.ok(await hasPassword(db.url, 'terminal@example.org', typed))
    })

    test('application passwords: created and shown once, listed without the secret, revoked', async () => {
      const created = ok(await places(db.url, 'app-password', 'create', '--user', 'admin@example.org', '--name', 'QGIS'))
      const secret = created.trimEnd().split('\n').at(-1)!
      assert.match(secret, /^[A-Za-z0-9]{24}$/)
      const [row] = JSON.parse(ok(await places(db.url, 'app-password', 'list', '--user', 'admin@example.org', '--json'))) as {
        uuid: string
        name: string
        lastUsedAt: null
      }[]
      assert.equal(row!.name, 'QGIS')
      assert.equal(row!.lastUsedAt, null)
      const listed = ok(await places(db.url, 'app-password', 'list', '--user', 'admin@example.org'))
      assert.match(listed, new RegExp(row!.uuid))
      assert.doesNotMatch(listed + ok(await places(db.url, 'export', '--all-statuses')), new RegExp(secret))
      assert.equal((await places(db.url, 'app-password', 'revoke', '--user', 'author@example.org', '--id', row!.uuid)).status, 1, "another user's password")
      ok(await places(db.url, 'app-password', 'revoke', '--user', 'admin@example.org', '--id', row!.uuid))
      assert.equal(ok(await places(db.url, 'app-password', 'list', '--user', 'admin@example.org')), '')
      const nobody = await places(db.url, 'app-password', 'create', '--user', 'nobody@example.org')
      assert.equal(nobody.status, 1)
      assert.match(nobody.stderr, /No user has the email nobody@example\.org/)
    })

    test('import prints the new ids in input order, keeps given ids, makes slugs and categories', async () => {
      const ids = ok(await places(db.url, 'import', file(`three-${kind}.geojson`, places3)))
        .trim()
        .split('\n')
        .map(Number)
      assert.equal(ids.length, 3)
      assert.equal(ids[1], 500)
      const exported = JSON.parse(ok(await places(db.url, 'export', '--all-statuses'))) as { features: { properties: Record<string, unknown> }[] }
      const byId = new Map(exported.features.map((f) => [f.properties.id, f.properties]))
      assert.deepEqual(byId.get(ids[0])?.categories, ['Europe > France > Paris', 'Landmarks'])
      assert.equal(byId.get(ids[0])?.slug, 'eiffel-tower')
      assert.equal(byId.get(ids[0])?.author, 'admin@example.org', 'the first administrator by default')
      assert.equal(byId.get(ids[2])?.slug, 'tokyo-tower')
      assert.equal(byId.get(ids[2])?.geo_public, false)
      assert.equal(byId.get(500)?.status, 'draft')
      // Importing the same file again: the given id is taken, so nothing is imported.
      const again = await places(db.url, 'import', file(`three-${kind}.geojson`, places3))
      assert.equal(again.status, 1)
      assert.match(again.stderr, /feature 1: properties\.id: post 500 already exists/)
      const slugs = ok(
        await places(
          db.url,
          'import',
          '--author',
          'author@example.org',
          file(`one-${kind}.geojson`, { type: 'FeatureCollection', features: [places3.features[0]] }),
        ),
      )
      const copy = (JSON.parse(ok(await places(db.url, 'export', '--all-statuses'))) as { features: { properties: Record<string, unknown> }[] }).features.find(
        (f) => f.properties.id === Number(slugs),
      )
      assert.equal(copy?.properties.slug, 'eiffel-tower-2')
      assert.equal(copy?.properties.author, 'author@example.org')
    })

    test('invalid imports name each feature and field, and import nothing', async () => {
      const before = ok(await places(db.url, 'export', '--all-statuses'))
      const bad = await places(
        db.url,
        'import',
        file('bad.geojson', {
          type: 'FeatureCollection',
          features: [
            places3.features[0],
            { type: 'Feature', geometry: point(190, 10), properties: { title: 'Out of range' } },
            { type: 'Feature', geometry: null, properties: { title: 'Wrong status', status: 'published' } },
            { type: 'Feature', geometry: null, properties: {} },
            { type: 'Feature', geometry: null, properties: { title: 'Ghost author', author: 'ghost@example.org' } },
          ],
        }),
      )
      assert.equal(bad.status, 1)
      assert.match(bad.stderr, /Nothing was imported/)
      assert.match(bad.stderr, /feature 1: geometry\.coordinates\.0/)
      assert.match(bad.stderr, /feature 2: properties\.status/)
      assert.match(bad.stderr, /feature 3: properties\.title/)
      const ghost = await places(
        db.url,
        'import',
        file('ghost.geojson', {
          type: 'FeatureCollection',
          features: [places3.features[0], { type: 'Feature', geometry: null, properties: { title: 'G', author: 'ghost@example.org' } }],
        }),
      )
      assert.match(ghost.stderr, /feature 1: properties\.author: no user has the email ghost@example\.org/)
      const notJson = await places(db.url, 'import', file('not.geojson', '{"type": "FeatureCollection", "features": ['))
      assert.equal(notJson.status, 1)
      assert.match(notJson.stderr, /cannot read .*not\.geojson as JSON/)
      assert.match((await places(db.url, 'import', path.join(dir, 'missing.geojson'))).stderr, /no such file/)
      assert.match((await places(db.url, 'import', file('fc.geojson', { type: 'Feature' }))).stderr, /not a GeoJSON FeatureCollection/)
      assert.equal(ok(await places(db.url, 'export', '--all-statuses')), before, 'nothing changed')
    })

    test('the file is read as it streams: any key order, every problem found, nothing imported on any', async () => {
      const before = ok(await places(db.url, 'export', '--all-statuses'))
      const feature = (title: string, properties: Record<string, unknown> = {}) => ({
        type: 'Feature',
        geometry: point(2.35, 48.85),
        properties: { title, ...properties },
      })
      // `type` after `features`, and keys of any kind skipped, nested arrays and objects included; a category path
      // of no names names no category.
      const later = `{"features": [${JSON.stringify(feature('Streamed A', { categories: ['Streamed'] }))}, ${JSON.stringify(feature('Streamed B', { categories: [' > ', ''] }))}], "bbox": [1, 2, 3, 4], "meta": {"features": [null], "type": "x"}, "type": "FeatureCollection"}`
      const ids = ok(await places(db.url, 'import', file('later.geojson', later)))
        .trim()
        .split('\n')
        .map(Number)
      assert.equal(ids.length, 2)
      const exported = JSON.parse(ok(await places(db.url, 'export', '--all-statuses'))) as {
        features: { properties: { id: number; title: string; categories: string[] } }[]
      }
      assert.deepEqual(
        exported.features
          .filter((f) => ids.includes(f.properties.id))
          .map((f) => [f.properties.title, f.properties.categories])
          .sort(),
        [
          ['Streamed A', ['Streamed']],
          ['Streamed B', []],
        ],
      )
      const afterGood = ok(await places(db.url, 'export', '--all-statuses'))

      // Features that are not objects are named by their index; a repeated id by the index of both, counted past
      // invalid features; past 20 problems, the rest are counted.
      const many = await places(
        db.url,
        'import',
        file('many.geojson', {
          type: 'FeatureCollection',
          features: [null, 'x', [1], feature('One', { id: 9001 }), feature('Two', { id: 9001 }), ...Array.from({ length: 30 }, () => feature(''))],
        }),
      )
      assert.equal(many.status, 1)
      assert.match(many.stderr, /feature 0: feature: /)
      assert.match(many.stderr, /feature 1: feature: /)
      assert.match(many.stderr, /feature 2: feature: /)
      assert.match(many.stderr, /feature 4: properties\.id: 9001 is also the id of feature 3/)
      assert.match(many.stderr, /…and 14 more/)
      // Broken JSON after valid features, or a collection whose type is not FeatureCollection: nothing.
      const broken = `{"type": "FeatureCollection", "features": [${JSON.stringify(feature('Before the break'))}, {"type": "Feature", "properties": }]}`
      assert.match((await places(db.url, 'import', file('broken.geojson', broken))).stderr, /cannot read .*broken\.geojson as JSON/)
      assert.match(
        (await places(db.url, 'import', file('typed.geojson', { features: [feature('Typed')], type: 'Feature' }))).stderr,
        /not a GeoJSON FeatureCollection/,
      )
      assert.match((await places(db.url, 'import', file('array.geojson', [feature('In an array')]))).stderr, /not a GeoJSON FeatureCollection/)
      assert.match(
        (await places(db.url, 'import', file('twice.geojson', `{"type": "FeatureCollection", "features": [], "features": []}`))).stderr,
        /not a GeoJSON FeatureCollection/,
      )
      assert.equal(ok(await places(db.url, 'export', '--all-statuses')), afterGood, 'nothing changed')
      assert.notEqual(afterGood, before)
    })

    test('export then import into an empty database gives the same posts', async () => {
      const exported = ok(await places(db.url, 'export', '--all-statuses'))
      const copy = await createTestDatabase(kind)
      try {
        for (const email of ['admin@example.org', 'author@example.org']) {
          ok(await places(copy.url, 'user', 'create', '--email', email, '--password', 'long enough', '--role', 'author'))
        }
        ok(await places(copy.url, 'import', file(`export-${kind}.geojson`, exported)))
        assert.equal(ok(await places(copy.url, 'export', '--all-statuses')), exported)
        type Exported = { geometry: unknown; properties: { address: string; geo_public: boolean } }
        const published = JSON.parse(ok(await places(copy.url, 'export', '--post-type', 'landmark'))) as { features: Exported[] }
        assert.equal(published.features.length, 1)
        // Without --all-statuses, what the public sees: the private location is neither point nor address.
        const [hidden] = published.features
        assert.deepEqual([hidden?.geometry, hidden?.properties.address, hidden?.properties.geo_public], [null, '', true])
        assert.equal('author' in (hidden?.properties ?? {}), false, 'who wrote it is not shown to visitors')
        const full = (JSON.parse(exported) as { features: Exported[] }).features.find((f) => f.properties.address === 'Shibakoen, Minato')
        assert.deepEqual([full?.geometry, full?.properties.geo_public], [point(139.7454, 35.6586), false], 'the full copy keeps it')
      } finally {
        await copy.drop()
      }
    })

    test('post delete moves posts to the Trash; --force deletes for good; every id is tried', async () => {
      const site = await createTestDatabase(kind)
      try {
        ok(await places(site.url, 'user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator'))
        const two = { type: 'FeatureCollection', features: [0, 1].map((n) => ({ type: 'Feature', geometry: point(n, n), properties: { title: `Gone ${n}` } })) }
        const [first, second] = ok(await places(site.url, 'import', file(`delete-${kind}.geojson`, two)))
          .trim()
          .split('\n')
          .map(Number)
        const statusOf = async (id: number) => (await queryRows<{ status: string }>(site.url, 'SELECT status FROM posts WHERE id = ?', [id]))[0]?.status
        assert.equal(ok(await places(site.url, 'post', 'delete', String(first), String(second))), `Trashed post ${first}.\nTrashed post ${second}.\n`)
        assert.equal(await statusOf(first!), 'trash')
        const again = await places(site.url, 'post', 'delete', String(first), '999999')
        assert.equal(again.status, 1)
        assert.match(again.stderr, new RegExp(`Post ${first} is in the Trash already; --force deletes it for good\\.\\nThere is no post 999999\\.`))
        assert.equal(ok(await places(site.url, 'post', 'delete', '--force', String(first))), `Deleted post ${first}.\n`)
        assert.equal(await statusOf(first!), undefined)
        assert.equal(await statusOf(second!), 'trash')
        assert.equal((await places(site.url, 'post', 'delete', 'twelve')).status, 2)
      } finally {
        await site.drop()
      }
    })

    test('zone add, list and remove: posts inside are shown coarsely at once, and exactly again after; bad input exits 2', async () => {
      const site = await createTestDatabase(kind)
      try {
        ok(await places(site.url, 'user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator'))
        const tower = { type: 'Point', coordinates: [2.2944813, 48.8583701] }
        const one = {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: tower, properties: { title: 'Tower', address: '5 Avenue Anatole France' } }],
        }
        ok(await places(site.url, 'import', file(`zone-${kind}.geojson`, one)))
        const publicCopy = async () =>
          (JSON.parse(ok(await places(site.url, 'export'))) as { features: { geometry: { coordinates: number[] }; properties: { address: string } }[] })
            .features[0]!
        assert.equal((await publicCopy()).properties.address, '5 Avenue Anatole France')

        const added = await places(site.url, 'zone', 'add', '--lat', '48.858', '--lng', '2.294', '--radius', '400', '--level', 'city', '--name', 'Home')
        const id = ok(added).trim()
        assert.match(id, /^\d+$/)
        assert.match(added.stderr, /1 post now shown city/)
        assert.equal((await publicCopy()).properties.address, 'Paris, Île-de-France, France')
        assert.notDeepEqual((await publicCopy()).geometry.coordinates, tower.coordinates)
        assert.equal(ok(await places(site.url, 'zone', 'list')), `${id}\tcity\t400\t48.858\t2.294\tHome\n`)
        assert.deepEqual(
          (JSON.parse(ok(await places(site.url, 'zone', 'list', '--json'))) as { name: string }[]).map((z) => z.name),
          ['Home'],
        )

        assert.equal(ok(await places(site.url, 'zone', 'remove', id)), `Removed zone ${id}: 1 post shown differently now.\n`)
        assert.equal((await publicCopy()).properties.address, '5 Avenue Anatole France')
        const gone = await places(site.url, 'zone', 'remove', id)
        assert.equal(gone.status, 1)
        assert.match(gone.stderr, new RegExp(`There is no privacy zone ${id}`))

        const bad = await places(site.url, 'zone', 'add', '--lat', '91', '--lng', '2', '--radius', '0', '--level', 'exact')
        assert.equal(bad.status, 2)
        assert.match(bad.stderr, /--lat: must be between -90 and 90; --radius: must be at least 1 metre; --level: must be one of approximate, city, hidden/)
        assert.equal((await places(site.url, 'zone', 'add', '--lat', 'north', '--lng', '2', '--radius', '10', '--level', 'city')).status, 2)
        assert.equal(ok(await places(site.url, 'zone', 'list')), '')
      } finally {
        await site.drop()
      }
    })

    test("site get and set: the site's settings, one a line or as JSON; only those given change; bad values exit 2 naming the flag", async () => {
      const site = await createTestDatabase(kind)
      try {
        assert.equal(ok(await places(site.url, 'site', 'get')), 'title\tPlaces\ntagline\t\nlanguage\ten\ntimezone\tUTC\n')
        const set = ok(await places(site.url, 'site', 'set', '--title', 'Wander & Wonder', '--language', 'de_DE', '--timezone', 'Europe/Vienna'))
        assert.equal(set, 'title\tWander & Wonder\ntagline\t\nlanguage\tde-DE\ntimezone\tEurope/Vienna\n')
        ok(await places(site.url, 'site', 'set', '--tagline', 'Walks, mostly'))
        assert.deepEqual(JSON.parse(ok(await places(site.url, 'site', 'get', '--json'))), {
          title: 'Wander & Wonder',
          tagline: 'Walks, mostly',
          language: 'de-DE',
          timezone: 'Europe/Vienna',
        })

        const bad = await places(site.url, 'site', 'set', '--title', 'Other', '--language', 'Deutsch!', '--timezone', 'Vienna')
        assert.equal(bad.status, 2)
        assert.match(bad.stderr, /--language: must be a language tag, such as en, de or pt-BR; --timezone: must be a time zone, such as UTC or Europe\/Berlin/)
        const none = await places(site.url, 'site', 'set')
        assert.equal(none.status, 2)
        assert.match(none.stderr, /give at least one of --title, --tagline, --language, --timezone/)
        assert.match(ok(await places(site.url, 'site', 'get')), /^title\tWander & Wonder$/m, 'nothing of a refused call is saved')
      } finally {
        await site.drop()
      }
    })

    test('seed loads the demo into an empty database only', async () => {
      const empty = await createTestDatabase(kind)
      try {
        const seeded = ok(await places(empty.url, 'seed', '--demo'))
        assert.match(seeded, /Loaded the demo: \d{3} posts, 1 trip and 5 users/)
        for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'])
          assert.match(seeded, new RegExp(`${role}@example\\.com +\\S{16}`))
        const demo = JSON.parse(readFileSync('prisma/demo/places.geojson', 'utf8')) as { features: unknown[] }
        const all = JSON.parse(ok(await places(empty.url, 'export', '--all-statuses'))) as { features: { geometry: unknown; properties: { title: string } }[] }
        assert.equal(all.features.length, demo.features.length + 1, "the demo file's places and the draft with photos (lib/demo/seed.ts)")
        assert.match(ok(await places(empty.url, 'trip', 'list')), /^\d+\tpublish\t\w+\t2010-10-03\t.*\ta-hike-to-zbevnica\tA hike to Zbevnica$/m)
        const draft = all.features.find((f) => f.properties.title === 'Photos from Rome')
        assert.equal(draft?.geometry, null, 'the draft with photos has no location: its photos have one')
        // What a newcomer's "Import location from media" on it does: its first photo's point, near the Colosseum.
        const located = JSON.parse(ok(await places(empty.url, 'locate', '--from-media', '--missing-only', '--dry-run', '--json'))) as {
          posts: { title: string; outcome: string; latitude: number; longitude: number }[]
        }
        const fromPhotos = located.posts.find((p) => p.title === 'Photos from Rome')
        assert.deepEqual([fromPhotos?.outcome, fromPhotos?.latitude.toFixed(3), fromPhotos?.longitude.toFixed(3)], ['set', '41.853', '12.489'])
        const again = await places(empty.url, 'seed', '--demo')
        assert.equal(again.status, 1)
        assert.match(again.stderr, /already has users or posts/)
        assert.equal(ok(await places(empty.url, 'seed', '--demo', '--if-empty')), '')
      } finally {
        await empty.drop()
      }
    })
  })
}

// Locations and addresses in bulk (docs/cli.md): `places geocode --missing` and `places locate --from-media`, with
// photos of the real-photo corpus (test/fixtures/exif), whose GPS ExifTool read as truth.json says.
for (const kind of databaseKinds) {
  describe(`locations in bulk on ${kind}`, () => {
    let site: TestDatabase
    const uploads = mkdtempSync(path.join(tmpdir(), 'places-cli-uploads-'))
    const run = (...args: string[]) => placesIn({ ...process.env, DATABASE_URL: site.url, SITE_URL: 'http://places.test', UPLOADS_DIR: uploads }, ...args)
    const photoOf = (name: string) => path.join('test', 'fixtures', 'exif', name)
    /** gox_gps.jpg and epy_nikon_D3100_TypeError.jpg at 7 decimals (truth.json: 26.5866666666667, -80.0536111111111 …) */
    const GOX = { latitude: 26.5866667, longitude: -80.0536111 }
    const NIKON = { latitude: 44.4207431, longitude: 8.9393332 }
    type Row = { id: number; latitude: number | null; longitude: number | null; address: string; status: string }
    const rows = async () =>
      new Map(
        (await queryRows<Row>(site.url, 'SELECT id, latitude, longitude, address, status FROM posts ORDER BY id')).map((row) => [
          Number(row.id),
          { latitude: row.latitude, longitude: row.longitude, address: row.address },
        ]),
      )
    const ids: Record<string, number> = {}

    before(async () => {
      site = await createTestDatabase(kind)
      ok(await run('user', 'create', '--email', 'admin@example.org', '--password', 'long enough', '--role', 'administrator'))
      const features = [
        { key: 'fromPhoto', geometry: null },
        { key: 'noGps', geometry: null },
        { key: 'paris', geometry: point(2.2945, 48.8584) },
        { key: 'atSea', geometry: point(-30, 0) },
        { key: 'typed', geometry: point(139.7454, 35.6586), address: 'Shiba-koen 4-2-8, Minato' },
        { key: 'landmark', geometry: null, type: 'landmark' },
        { key: 'trashed', geometry: null, status: 'trash' },
      ]
      const created = ok(
        await run(
          'import',
          file(`bulk-${kind}.geojson`, {
            type: 'FeatureCollection',
            features: features.map(({ key, geometry, ...properties }) => ({ type: 'Feature', geometry, properties: { title: `Bulk ${key}`, ...properties } })),
          }),
        ),
      )
        .trim()
        .split('\n')
        .map(Number)
      features.forEach(({ key }, i) => (ids[key] = created[i]!))
      // The first photo has no EXIF: the first one *with GPS* counts, as for GET /attachment-exif-gps/{id}.
      ok(
        await run(
          'media',
          'import',
          '--post',
          String(ids.fromPhoto),
          photoOf('exr_noexif.jpg'),
          photoOf('gox_gps.jpg'),
          photoOf('epy_nikon_D3100_TypeError.jpg'),
        ),
      )
      ok(await run('media', 'import', '--post', String(ids.noGps), photoOf('exr_noexif.jpg'), photoOf('mei_FLIR Vue Pro 640.jpg')))
      ok(await run('media', 'import', '--post', String(ids.paris), photoOf('epy_nikon_D3100_TypeError.jpg')))
      ok(await run('media', 'import', '--post', String(ids.typed), photoOf('gox_gps.jpg')))
      ok(await run('media', 'import', '--post', String(ids.landmark), photoOf('gox_gps.jpg')))
      ok(await run('media', 'import', '--post', String(ids.trashed), photoOf('gox_gps.jpg')))
    })
    after(async () => {
      await site.drop()
      rmSync(uploads, { recursive: true, force: true })
    })

    test('geocode --missing: --dry-run shows what it would write and writes nothing; then empty addresses are filled, typed ones kept', async () => {
      const before = await rows()
      const dry = ok(await run('geocode', '--missing', '--dry-run'))
      assert.match(dry, new RegExp(`^Post ${ids.paris} “Bulk paris”: would be “Paris, Île-de-France, France”$`, 'm'))
      assert.match(dry, new RegExp(`^Post ${ids.atSea} “Bulk atSea”: no populated place near, left empty$`, 'm'))
      assert.match(dry, /^Would fill 1 of 2 empty addresses; 1 at no populated place within 50 km \(at sea or far from any town\) stays empty\.$/m)
      assert.match(dry, /^Dry run: nothing was written\.$/m)
      assert.deepEqual(await rows(), before, 'a dry run writes nothing')

      const report = JSON.parse(ok(await run('geocode', '--missing', '--json'))) as { summary: unknown; posts: { id: number; address: string | null }[] }
      assert.deepEqual(report.summary, { posts: 2, filled: 1, noPlace: 1, dryRun: false })
      assert.deepEqual(
        report.posts.map((post) => [post.id, post.address]),
        [
          [ids.paris, 'Paris, Île-de-France, France'],
          [ids.atSea, null],
        ],
      )
      const after = await rows()
      assert.equal(after.get(ids.paris!)?.address, 'Paris, Île-de-France, France')
      assert.equal(after.get(ids.atSea!)?.address, '')
      assert.equal(after.get(ids.typed!)?.address, 'Shiba-koen 4-2-8, Minato', 'a typed address is never replaced')
      // The admin's search finds the post by its new address (search_text is kept with it).
      const found = await queryRows<{ id: number }>(site.url, 'SELECT id FROM posts WHERE search_text LIKE ?', ['%ile-de-france%'])
      assert.deepEqual(
        found.map((row) => Number(row.id)),
        [ids.paris],
      )
      assert.match(ok(await run('geocode', '--missing')), /^Filled 0 of 1 empty address; 1 at no populated place/m, 'only the one at sea is left')
    })

    test('locate --from-media --missing-only: posts without a location take their first photo with GPS; the rest are skipped, saying why', async () => {
      const before = await rows()
      const report = JSON.parse(ok(await run('locate', '--from-media', '--missing-only', '--json'))) as {
        summary: Record<string, unknown>
        posts: { id: number; outcome: string; reason?: string; note: string }[]
      }
      assert.deepEqual(report.summary, {
        posts: 5,
        set: 1,
        unchanged: 0,
        skipped: 4,
        skippedBy: { no_photo_gps: 1, has_location: 3, in_trash: 0, not_editable: 0 },
        addressesFilled: 1,
        noPlace: 0,
        dryRun: false,
      })
      const byId = new Map(report.posts.map((post) => [post.id, post]))
      assert.equal(byId.has(ids.landmark!), false, 'posts of type post only, unless --post-type')
      assert.equal(byId.has(ids.trashed!), false, 'the Trash is left alone')
      assert.equal(byId.get(ids.noGps!)?.note, 'no photo has GPS (2 photos looked at)', 'a GPS block at 0,0 is no GPS')
      assert.equal(byId.get(ids.paris!)?.reason, 'has_location')
      const after = await rows()
      assert.deepEqual(after.get(ids.fromPhoto!), { ...GOX, address: 'Lantana, Florida, United States of America' })
      for (const key of ['noGps', 'paris', 'atSea', 'typed', 'landmark', 'trashed']) assert.deepEqual(after.get(ids[key]!), before.get(ids[key]!), key)
    })

    test('locate --from-media sets placed posts from their photos too, keeping typed addresses; --dry-run writes nothing', async () => {
      const before = await rows()
      const dry = ok(await run('locate', '--from-media', '--dry-run'))
      assert.match(dry, new RegExp(`^Post ${ids.paris} “Bulk paris”: would be set to ${NIKON.latitude}, ${NIKON.longitude} from photo \\d+`, 'm'))
      assert.match(dry, /^Would set the location of 2 posts\.$/m)
      assert.match(dry, /^Dry run: nothing was written\.$/m)
      assert.deepEqual(await rows(), before)

      const text = ok(await run('locate', '--from-media'))
      assert.match(
        text,
        new RegExp(
          `^Post ${ids.typed} “Bulk typed”: location set to ${GOX.latitude}, ${GOX.longitude} from photo \\d+ \\(“gox_gps”\\); the address “Shiba-koen 4-2-8, Minato” is kept as typed$`,
          'm',
        ),
      )
      assert.match(text, new RegExp(`^Post ${ids.noGps} “Bulk noGps”: no photo has GPS \\(2 photos looked at\\)$`, 'm'))
      assert.match(text, new RegExp(`^Post ${ids.atSea} “Bulk atSea”: has no photos$`, 'm'))
      assert.match(
        text,
        /^Looked at 5 posts\.\nSet the location of 2 posts\.\nUnchanged: 1 post already at their photo's point\.\nSkipped 2 posts: 2 without a photo with GPS\.$/m,
      )
      const after = await rows()
      assert.deepEqual(after.get(ids.paris!), { ...NIKON, address: 'Paris, Île-de-France, France' }, 'the address filled before is kept')
      assert.deepEqual(after.get(ids.typed!), { ...GOX, address: 'Shiba-koen 4-2-8, Minato' })
      assert.deepEqual(after.get(ids.atSea!), before.get(ids.atSea!))
    })

    test('locate --post-type works on that type only; the Trash is left alone; mistakes in the call exit 2', async () => {
      const report = JSON.parse(ok(await run('locate', '--from-media', '--post-type', 'landmark', '--json'))) as { summary: { posts: number; set: number } }
      assert.deepEqual([report.summary.posts, report.summary.set], [1, 1])
      const after = await rows()
      assert.deepEqual(after.get(ids.landmark!), { ...GOX, address: 'Lantana, Florida, United States of America' })
      assert.deepEqual(after.get(ids.trashed!), { latitude: null, longitude: null, address: '' })
      assert.match(ok(await run('locate', '--from-media', '--post-type', 'nothing-here')), /^No posts to look at\.$/m)
      for (const [args, message] of [
        [['locate'], /give one of --from-media and --from-track FILE\.gpx/],
        [['geocode'], /--missing is required/],
        [['locate', '--from-media', '--post-type', 'Not A Type'], /--post-type must be 1 to 20 characters/],
        [['geocode', '--missing', '--bogus'], /Unknown option '--bogus'/],
      ] as const) {
        const refused = await run(...args)
        assert.equal(refused.status, 2, args.join(' '))
        assert.match(refused.stderr, message)
        assert.match(refused.stderr, /Usage: places (locate|geocode)/)
      }
    })

    test('locate --from-track places a photo without GPS where a GPX track was when it was taken, and its post; mistakes exit 2', async () => {
      // A real phone photo, its GPS removed, taken (by its EXIF) when the walk of cerknicko-jezero.gpx was at its 31st point.
      const photo = path.join(dir, `walk-${kind}.jpg`)
      copyFileSync(photoOf('mei_Apple iPhone 4.jpg'), photo)
      const exiftool = new ExifTool({ maxProcs: 1 })
      await exiftool.write(
        photo,
        { DateTimeOriginal: '2010:08:05 16:33:48', OffsetTimeOriginal: '+02:00' },
        { writeArgs: ['-overwrite_original', '-gps:all='] },
      )
      await exiftool.end()
      const [post] = ok(
        await run(
          'import',
          file(`walk-${kind}.geojson`, { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties: { title: 'Walk' } }] }),
        ),
      )
        .trim()
        .split('\n')
      const attachment = ok(await run('media', 'import', '--post', post!, photo)).trim()
      rmSync(photo)
      const track = path.join('test', 'fixtures', 'tracks', 'cerknicko-jezero.gpx')
      const dry = ok(await run('locate', '--from-track', track, '--dry-run'))
      assert.match(dry, /^7 tracks, 296 of 296 points with a time, from 2010-08-05 14:23 to 2010-08-05 16:23 UTC, 4\.6 km, \d+ m climbed$/m)
      assert.match(dry, /^Camera “Apple iPhone 4”: no photo with GPS on the track to check its clock by: taken as right$/m)
      assert.match(
        dry,
        new RegExp(`^Photo ${attachment} \\(“[^”]+”\\) of post ${post}: would be placed at 45.7701104, 14.3560676, within 0 s of the track's points$`, 'm'),
      )
      assert.match(dry, /^Dry run: nothing was written\.$/m)
      assert.deepEqual((await rows()).get(Number(post)), { latitude: null, longitude: null, address: '' })
      const text = ok(await run('locate', '--from-track', track))
      assert.match(
        text,
        new RegExp(`^Post ${post} “Walk”: location set to 45.7701104, 14.3560676 from photo ${attachment} .*address filled: “[^”]+, Slovenia”$`, 'm'),
      )
      assert.match(text, /^Looked at \d+ photos without GPS\.$/m)
      assert.match(text, /^Placed 1 photo\.$/m)
      assert.match(text, /^Skipped \d+ photos?: \d+ without a time\.$/m, 'the corpus photos without GPS have no time')
      const located = (await rows()).get(Number(post))!
      assert.deepEqual([located.latitude, located.longitude], [45.7701104, 14.3560676])
      assert.match(located.address, /, Slovenia$/)
      const nobody = await run('locate', '--from-track', track, '--author', 'nobody@example.org')
      assert.equal(nobody.status, 1)
      assert.match(nobody.stderr, /No user has the email nobody@example\.org/)
      const own = JSON.parse(ok(await run('locate', '--from-track', track, '--author', 'admin@example.org', '--json'))) as { summary: { photos: number } }
      assert.ok(own.summary.photos > 0, 'the imported posts are the administrator’s')
      ok(await run('user', 'create', '--email', 'walker@example.org', '--password', 'long enough', '--role', 'author'))
      const others = JSON.parse(ok(await run('locate', '--from-track', track, '--author', 'walker@example.org', '--json'))) as { summary: { photos: number } }
      assert.equal(others.summary.photos, 0, 'an author without posts has no photos to place')
      const report = JSON.parse(ok(await run('locate', '--from-track', track, '--camera-offset=-00:20', '--json'))) as {
        photos: { id: number; reason?: string }[]
      }
      assert.equal(report.photos.find((p) => p.id === Number(attachment))?.reason, 'outside_track', '20 minutes earlier is before the walk began')
      for (const [args, message] of [
        [['locate', '--from-media', '--from-track', track], /give one of --from-media and --from-track/],
        [['locate', '--from-track', track, '--camera-offset', '1h'], /--camera-offset must be hours and minutes/],
        [['locate', '--from-track', track, '--max-gap', 'ten'], /--max-gap must be a time such as 90s, 10m or 1h/],
        [['locate', '--from-track', track, '--missing-only'], /--missing-only is for --from-media/],
        [['locate', '--from-media', '--max-gap', '5m'], /--max-gap is for --from-track/],
        [['locate', '--from-media', '--author', 'admin@example.org'], /--author is for --from-track/],
      ] as const) {
        const refused = await run(...args)
        assert.equal(refused.status, 2, args.join(' '))
        assert.match(refused.stderr, message)
      }
      const waypoints = file(`waypoints-${kind}.gpx`, '<gpx version="1.1"><wpt lat="1" lon="2"><name>W</name></wpt></gpx>')
      for (const [args, message] of [
        [['locate', '--from-track', 'no-such.gpx'], /cannot read no-such\.gpx: no such file/],
        [['locate', '--from-track', waypoints], /has no track point with a time \(no track at all\)/],
        [['locate', '--from-track', photoOf('gox_gps.jpg')], /tracks are read from GPX, KML and KMZ files/],
      ] as const) {
        const failed = await run(...args)
        assert.equal(failed.status, 1, args.join(' '))
        assert.match(failed.stderr, message)
      }
    })

    test('trip list, set and remove: a GPX file’s trip listed, changed, its route level applied, removed with its posts kept', async () => {
      const imported = await run('import', path.join('test', 'fixtures', 'tracks', 'taveuni-antimeridian.gpx'))
      assert.equal(imported.status, 0, imported.stderr)
      assert.match(imported.stderr, /^Imported 2 waypoints from GPX, and 1 line as the trip “Across the date line” \(\/trip\/across-the-date-line\)\.$/m)
      const posts = imported.stdout.trim().split('\n').map(Number)
      const [line] = ok(await run('trip', 'list'))
        .trim()
        .split('\n')
      const [id, ...fields] = line!.split('\t')
      assert.deepEqual(fields, ['publish', 'exact', '2024-07-14', '24.0', '41', '2', 'across-the-date-line', 'Across the date line'])
      assert.equal(ok(await run('trip', 'set', id!, '--level', 'hidden', '--status', 'draft', '--title', 'Ferry')).trim(), `Trip ${id} changed.`)
      const [changed] = await queryRows<{ title: string; status: string; public_route: string | null }>(
        site.url,
        `SELECT title, status, public_route FROM trips WHERE id = ${Number(id)}`,
      )
      assert.deepEqual({ ...changed }, { title: 'Ferry', status: 'draft', public_route: null }, 'the hidden level takes the route away at once')
      for (const [args, message] of [
        [['trip', 'set', id!, '--level', 'city'], /--level: must be one of exact, approximate, hidden/],
        [['trip', 'set', id!], /nothing to change/],
        [['trip', 'set', 'x', '--title', 'T'], /"x" is not a trip id/],
      ] as const) {
        const refused = await run(...args)
        assert.equal(refused.status, 2, args.join(' '))
        assert.match(refused.stderr, message)
      }
      assert.equal(ok(await run('trip', 'remove', id!)).trim(), `Removed trip ${id}.`)
      assert.equal(ok(await run('trip', 'list')), '')
      const missing = await run('trip', 'remove', id!)
      assert.equal(missing.status, 1)
      assert.match(missing.stderr, new RegExp(`There is no trip ${id}\\.`))
      const left = await rows()
      assert.ok(
        posts.every((post) => left.has(post)),
        'the posts stay',
      )
    })
  })
}
