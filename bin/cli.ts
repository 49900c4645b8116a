// The command line of docs/cli.md: parses arguments, calls lib/, prints. Run it as `npx places`.
import { once } from 'node:events'
import { constants } from 'node:fs'
import { access, open, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { OPERATOR } from '../lib/auth/callers'
import { ROLES } from '../lib/auth/capabilities'
import { MAX_DISTANCE_KM } from '../lib/geo/gazetteer'
import { ApiError } from '../lib/http/errors'
import { closeAll } from '../lib/on-exit'
import { ZONE_LEVELS } from '../lib/places/location-levels'
import type { LocateSummary } from '../lib/places/locate'
import type { ImportFile } from '../lib/places/formats/read'
import { EXPORT_FORMATS, type ExportFormat } from '../lib/places/formats/names'
import { PASSWORD_HELP, PasswordUsageError, readPassword } from './read-password'

type Options = NonNullable<ParseArgsConfig['options']>
type Values = Record<string, string | boolean | undefined>
type Command = {
  usage: string
  summary: string
  options: Options
  positionals?: 'none' | 'one' | 'many'
  /** more than the summary, for `places <command> --help` */
  help?: string
  run: (values: Values, positionals: string[]) => Promise<void>
}

/** A mistake in how the command was called: its usage is printed and the exit code is 2. */
class UsageError extends Error {}

const json: Options = { json: { type: 'boolean' } }
const out = (line: string): void => {
  process.stdout.write(`${line}\n`)
}

const LINES_AT_ONCE = 10_000

/** The settings `places site set` takes, each its flag (lib/site.ts). */
const SITE_SETTINGS = ['title', 'tagline', 'language', 'timezone'] as const

function printSettings(settings: Record<(typeof SITE_SETTINGS)[number], string>, asJson: boolean): void {
  out(asJson ? JSON.stringify(settings) : SITE_SETTINGS.map((name) => `${name}\t${settings[name]}`).join('\n'))
}

/** One line per value, written a few thousand at a time: a million ids are not one string of megabytes and its copies. */
async function outLines(values: readonly (string | number)[]): Promise<void> {
  for (let start = 0; start < values.length; start += LINES_AT_ONCE) {
    if (!process.stdout.write(`${values.slice(start, start + LINES_AT_ONCE).join('\n')}\n`)) await once(process.stdout, 'drain')
  }
}

function required(values: Values, name: string): string {
  const value = values[name]
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`)
  return value
}

const passwordOptions: Options = { password: { type: 'string' }, 'password-stdin': { type: 'boolean' } }

/** The password of a user command: asked for, read from stdin, or (unsafely) --password (bin/read-password.ts). */
async function password(values: Values): Promise<string> {
  try {
    return await readPassword({ password: typeof values.password === 'string' ? values.password : undefined, stdin: values['password-stdin'] === true })
  } catch (error) {
    throw error instanceof PasswordUsageError ? new UsageError(error.message) : error
  }
}

function progress(label: string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined
  return (done, total) => {
    const width = 30
    const filled = Math.round((done / Math.max(total, 1)) * width)
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`)
  }
}

/** A count of work of unknown size, on one line of a terminal. */
function counter(label: string): ((done: number, finished: boolean) => void) | undefined {
  if (!process.stderr.isTTY) return undefined
  return (done, finished) => process.stderr.write(`\r${label} ${done}${finished ? '\n' : ''}`)
}

// Each command imports the lib/ modules it runs as it runs, a chunk of the bundle of their own (bin/places.mjs):
// `places --help`, or a mistyped flag, loads no database driver, image library or ExifTool.
const commands: Record<string, Command> = {
  migrate: {
    usage: 'places migrate',
    summary: 'create or upgrade the database at DATABASE_URL',
    options: {},
    run: async () => {
      const { migrate } = await import('../lib/migrate')
      const applied = await migrate()
      out(applied.length ? `Applied ${applied.join(', ')}` : 'The database is up to date.')
    },
  },
  seed: {
    usage: 'places seed [--demo] [--if-empty]',
    summary: 'load the demo site (users of every role, categories, places, a trip) into an empty database',
    options: { demo: { type: 'boolean' }, 'if-empty': { type: 'boolean' } },
    run: async (values) => {
      const [{ isDatabaseEmpty, seedDemo }, { getConfig }] = await Promise.all([import('../lib/demo/seed'), import('../lib/config')])
      if (values['if-empty'] && !(await isDatabaseEmpty())) return
      const { users, postIds, trips } = await seedDemo(progress('Demo places'))
      out(`Loaded the demo: ${postIds.length} posts, ${trips} trip and ${users.length} users.`)
      out(`Sign in at ${getConfig().siteUrl}/signin as one of these (the passwords are shown only now):`)
      for (const user of users) out(`  ${user.role.padEnd(13)} ${user.email.padEnd(28)} ${user.password}`)
    },
  },
  'user create': {
    usage: 'places user create --email E --role R [--name N] [--password-stdin | --password P]',
    summary: `add a user; R is ${ROLES.join(', ')}; prints the user id`,
    help: PASSWORD_HELP,
    options: { email: { type: 'string' }, ...passwordOptions, role: { type: 'string' }, name: { type: 'string' }, ...json },
    run: async (values) => {
      const email = required(values, 'email')
      const role = required(values, 'role') as (typeof ROLES)[number]
      const { createUser } = await import('../lib/users')
      const id = await createUser({ email, password: await password(values), role, name: typeof values.name === 'string' ? values.name : undefined })
      out(values.json ? JSON.stringify({ id }) : String(id))
    },
  },
  'user set-password': {
    usage: 'places user set-password --email E [--password-stdin | --password P]',
    summary: "set a user's password (users imported from WordPress have none until then); ends the user's sessions",
    help: PASSWORD_HELP,
    options: { email: { type: 'string' }, ...passwordOptions },
    run: async (values) => {
      const email = required(values, 'email')
      const { getUserIdByEmailOrThrow, setUserPassword } = await import('../lib/users')
      await getUserIdByEmailOrThrow(email) // before asking for a password, not after
      await setUserPassword(email, await password(values))
      out(`Password set for ${values.email}`)
    },
  },
  'user sign-out-everywhere': {
    usage: 'places user sign-out-everywhere EMAIL',
    summary: 'end every session of a user, in every browser (their application passwords keep working)',
    options: {},
    positionals: 'one',
    run: async (_values, [email]) => {
      const { signOutEverywhere } = await import('../lib/users')
      await signOutEverywhere(email!)
      out(`Signed ${email} out everywhere.`)
    },
  },
  'app-password create': {
    usage: 'places app-password create --user E [--name N]',
    summary: 'create an application password for user E; prints it, once, as the last line',
    options: { user: { type: 'string' }, name: { type: 'string' }, ...json },
    run: async (values) => {
      const { createAppPassword } = await import('../lib/auth/app-passwords')
      const created = await createAppPassword(required(values, 'user'), typeof values.name === 'string' ? values.name : 'places-cli')
      if (values.json) return out(JSON.stringify(created))
      out(`Application password "${created.name}" (id ${created.uuid}) for ${values.user}. It is shown only now:`)
      out(created.password)
    },
  },
  'app-password list': {
    usage: 'places app-password list --user E',
    summary: "list a user's application passwords (never the secret)",
    options: { user: { type: 'string' }, ...json },
    run: async (values) => {
      const { listAppPasswords } = await import('../lib/auth/app-passwords')
      const rows = await listAppPasswords(required(values, 'user'))
      if (values.json) return out(JSON.stringify(rows))
      for (const row of rows) out([row.uuid, row.name, row.createdAt.toISOString(), row.lastUsedAt?.toISOString() ?? 'never used'].join('\t'))
    },
  },
  'app-password revoke': {
    usage: 'places app-password revoke --user E --id ID',
    summary: 'revoke one of the application passwords of user E',
    options: { user: { type: 'string' }, id: { type: 'string' }, ...json },
    run: async (values) => {
      const id = required(values, 'id')
      const { revokeAppPassword } = await import('../lib/auth/app-passwords')
      await revokeAppPassword(required(values, 'user'), id)
      out(values.json ? JSON.stringify({ revoked: id }) : `Revoked ${id}`)
    },
  },
  import: {
    usage: 'places import FILE [--author E] [--columns FIELD=COLUMN,...] [--dry-run]',
    summary: 'import places from GeoJSON, KML, KMZ, GPX or CSV (chosen by content) as posts, all or nothing; prints the new post ids in input order',
    help: 'A dry run checks everything, as the import would, and writes nothing. Tracks and routes of GPX, lines of KML, become a trip\nthat the posts belong to (docs/trips.md); areas are skipped (said on stderr); a problem anywhere (a CSV row without a title, a latitude that is no number) imports\nnothing, naming the line (CSV), placemark (KML) or waypoint (GPX). docs/cli.md, "Other formats", says what is read.\n--columns names the columns of a CSV file by their headers: title=Titel,latitude=Breitengrad,longitude=Längengrad.',
    options: { author: { type: 'string' }, columns: { type: 'string' }, 'dry-run': { type: 'boolean' }, ...json },
    positionals: 'one',
    run: async (values, [file]) => {
      const [{ formatName, readImportFile }, { importPlaces }] = await Promise.all([import('../lib/places/formats/read'), import('../lib/places/import')])
      const columns = typeof values.columns === 'string' ? parseColumns(values.columns, (await import('../lib/places/formats/csv')).CSV_FIELDS) : undefined
      const read = await readImportFile(file!, { columns })
      const dryRun = values['dry-run'] === true
      for (const skipped of read.skipped) process.stderr.write(`skipped ${skipped}\n`)
      for (const note of read.notes) process.stderr.write(`note: ${note}\n`)
      let slug: string | undefined
      const ids = await importPlaces(read.source, {
        defaultAuthor: typeof values.author === 'string' ? values.author : undefined,
        labelOf: read.labelOf,
        refused: read.refused,
        dryRun,
        onChecked: counter(`Checking ${read.item}s:`),
        onProgress: progress(dryRun ? 'Trying' : 'Importing'),
        trip: read.trip,
        onTrip: (written) => (slug = written.slug),
        onMissingTrips: (slugs) => process.stderr.write(`note: no trip here has the slug ${slugs.join(', ')}: the posts naming it are on no trip\n`),
      })
      const summary = importSummary(read, formatName(read.format), ids.length, dryRun, slug)
      if (values.json) return out(JSON.stringify(dryRun ? { format: read.format, taken: ids.length, skipped: read.skipped, dryRun } : ids))
      if (dryRun) return out(summary)
      await outLines(ids)
      process.stderr.write(`${summary}\n`)
    },
  },
  export: {
    usage: 'places export [--format F] [--post-type T] [--all-statuses]',
    summary: `print the places as ${[...EXPORT_FORMATS, 'wxr'].join(', ')} (default geojson, the format import reads); published only by default`,
    help: "KML and CSV carry every field a place has but its id, which import assigns anew; GPX holds the title, content, date and point\n(posts without a location are left out). --all-statuses writes the operator's full copy (docs/cli.md, Other formats).\n--format wxr writes the whole site as a WordPress export, for WordPress's importer or places import-wxr.",
    options: { format: { type: 'string' }, 'post-type': { type: 'string' }, 'all-statuses': { type: 'boolean' } },
    run: async (values) => {
      const format = values.format ?? 'geojson'
      if (format !== 'wxr' && !EXPORT_FORMATS.includes(format as ExportFormat)) {
        throw new UsageError(`--format must be one of ${[...EXPORT_FORMATS, 'wxr'].join(', ')}`)
      }
      if (format === 'wxr' && (values['post-type'] !== undefined || values['all-statuses'] !== undefined)) {
        throw new UsageError('--format wxr writes the whole site, every type and status: --post-type and --all-statuses do not apply')
      }
      const [{ getConfig }, { getSiteSettings }] = await Promise.all([import('../lib/config'), import('../lib/site')])
      const settings = await getSiteSettings()
      const { siteUrl } = getConfig()
      // Each writer loaded alone: a site's WXR reads its photos' storage, which places do not need.
      const chunks =
        format === 'wxr'
          ? (await import('../lib/wxr/export')).writeWxr({ siteUrl, settings })
          : (await import('../lib/places/formats/write')).writePlaces(
              format as ExportFormat,
              (await import('../lib/places/export')).exportPlaces({
                postType: typeof values['post-type'] === 'string' ? values['post-type'] : undefined,
                allStatuses: values['all-statuses'] === true,
              }),
              { siteUrl, name: settings.title },
            )
      for await (const chunk of chunks) {
        if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve))
      }
    },
  },
  'import-wxr': {
    usage: 'places import-wxr FILE.xml [--uploads DIR] [--map FILE.json]',
    summary:
      "import a WordPress export (WXR): authors, categories, posts of every type, geo_* meta, attachments (files from DIR, WordPress's wp-content/uploads)",
    help: 'Posts and attachments keep their WordPress ids where free. --map writes every WordPress id of the file and its id here as\nJSON, {"posts": {"12": 12, ...}, "attachments": {...}}, so that links can be rewritten (docs/cli.md).',
    options: { uploads: { type: 'string' }, map: { type: 'string' }, ...json },
    positionals: 'one',
    run: async (values, [file]) => {
      const map = typeof values.map === 'string' ? values.map : undefined
      // Before the import, which may take long: a map that cannot be written is better known first.
      if (map !== undefined) await access(path.dirname(path.resolve(map)), constants.W_OK)
      const { importWxr } = await import('../lib/wxr/import')
      const summary = await importWxr(file!, {
        uploadsDir: typeof values.uploads === 'string' ? values.uploads : undefined,
        onProgress: progress('Reading'),
        onPhotos: progress('Photos'),
      })
      if (map !== undefined) await writeFile(map, `${JSON.stringify(summary.ids, null, 1)}\n`)
      for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`)
      // The map is for --map: a site's worth of ids does not belong in a summary.
      const { ids: _ids, ...rest } = summary
      if (values.json) return out(JSON.stringify(rest))
      out(
        `Imported ${summary.posts} posts, ${summary.categories} categories${summary.tags > 0 ? `, ${summary.tags} tags` : ''}${summary.comments > 0 ? `, ${summary.comments} comments` : ''} and ${summary.attachments} attachments; ${summary.skipped} items were already imported.`,
      )
      if (summary.renumbered.length > 0) {
        const shown = summary.renumbered.slice(0, 20).map((r) => `${r.kind} ${r.wordpressId} → ${r.id}`)
        const more = summary.renumbered.length > shown.length ? `, and ${summary.renumbered.length - shown.length} more` : ''
        out(
          `${summary.renumbered.length} items got new ids, their WordPress ids being taken here: ${shown.join(', ')}${more}${map === undefined ? ' (--map FILE writes them all)' : ''}.`,
        )
      }
      const leftOut = Object.entries(summary.leftOut).map(([kind, count]) => `${count} × ${kind}`)
      if (leftOut.length > 0) out(`Left out, as Places does not keep them: ${leftOut.join(', ')}.`)
      if (summary.newUsers.length > 0) {
        out(`New users, who cannot sign in until a password is set (places user set-password): ${summary.newUsers.join(', ')}`)
      }
      if (summary.settings.length > 0) out(`Set from the export, as they had never been set here: the site's ${summary.settings.join(', ')} (places site get).`)
      if (summary.warnings.length > 0) out(`${summary.warnings.length} warnings (above, on stderr).`)
    },
  },
  'post delete': {
    usage: 'places post delete ID... [--force]',
    summary: 'move posts to the Trash, as `wp post delete`; with --force delete them for good, with their photos',
    help: "Without --force a post goes to the Trash, where the admin can restore it. With --force it is deleted, and its photos' files\nwith it: that cannot be undone. Every id is tried; the exit code is 1 if any failed.",
    options: { force: { type: 'boolean' } },
    positionals: 'many',
    run: async (values, args) => {
      const [{ parsePostId }, { deletePost, trashPost }] = await Promise.all([import('../lib/places/schemas'), import('../lib/admin/posts')])
      const ids = args.map((arg) => {
        const id = parsePostId(arg)
        if (id === null) throw new UsageError(`"${arg}" is not a post id`)
        return id
      })
      const report = progress(values.force ? 'Deleting' : 'Trashing')
      const failed: string[] = []
      for (const [index, id] of ids.entries()) {
        try {
          if (values.force) {
            const photos = await deletePost(OPERATOR, id)
            out(`Deleted post ${id}${photos > 0 ? ` and its ${photos} photo${photos === 1 ? '' : 's'}` : ''}.`)
          } else if (await trashPost(OPERATOR, id)) out(`Trashed post ${id}.`)
          else failed.push(`Post ${id} is in the Trash already; --force deletes it for good.`)
        } catch (error) {
          if (!(error instanceof ApiError)) throw error
          failed.push(error.message)
        }
        report?.(index + 1, ids.length)
      }
      if (failed.length > 0) throw new ApiError('places_post_delete', failed.join('\n'))
    },
  },
  'site get': {
    usage: 'places site get',
    summary: "print the site's settings: title, tagline, language and time zone, one a line (name, tab, value)",
    options: json,
    run: async (values) => {
      const { getSiteSettings } = await import('../lib/site')
      const settings = await getSiteSettings()
      printSettings(settings, values.json === true)
    },
  },
  'site set': {
    usage: 'places site set [--title T] [--tagline T] [--language L] [--timezone Z]',
    summary: "change the site's settings (Settings → General): the others stay as they are",
    help: "L is a language tag (en, de, pt-BR; WordPress's de_DE is taken as de-DE); Z an IANA time zone (UTC, Europe/Berlin).\nThe pages, feeds and REST index say the new ones as soon as the command ends.",
    options: { title: { type: 'string' }, tagline: { type: 'string' }, language: { type: 'string' }, timezone: { type: 'string' }, ...json },
    run: async (values) => {
      const input = Object.fromEntries(SITE_SETTINGS.flatMap((name) => (typeof values[name] === 'string' ? [[name, values[name]]] : [])))
      if (Object.keys(input).length === 0) throw new UsageError(`give at least one of ${SITE_SETTINGS.map((name) => `--${name}`).join(', ')}`)
      const { updateSiteSettings } = await import('../lib/site')
      printSettings(await withFlagErrors(() => updateSiteSettings(OPERATOR, input), {}), values.json === true)
    },
  },
  'zone add': {
    usage: 'places zone add --lat L --lng L --radius METRES --level LEVEL [--name N]',
    summary: 'add a privacy zone: posts whose point lies within it are shown at least as coarsely as LEVEL; prints its id',
    help: `LEVEL is ${ZONE_LEVELS.join(', ')} (docs/privacy.md). The posts inside are shown by the new zone as soon as the command ends.`,
    options: { lat: { type: 'string' }, lng: { type: 'string' }, radius: { type: 'string' }, level: { type: 'string' }, name: { type: 'string' }, ...json },
    run: async (values) => {
      const number = (flag: string) => {
        const text = required(values, flag)
        if (!/^\s*-?\d+(\.\d+)?\s*$/.test(text)) throw new UsageError(`--${flag} must be a number, not "${text}"`)
        return Number(text)
      }
      const { addZone } = await import('../lib/places/zones')
      const input = { latitude: number('lat'), longitude: number('lng'), radiusMetres: number('radius'), level: required(values, 'level'), name: values.name }
      const { zone, changed } = await withFlagErrors(() => addZone(OPERATOR, input), { latitude: 'lat', longitude: 'lng', radiusMetres: 'radius' })
      if (values.json) return out(JSON.stringify({ ...zone, changed }))
      process.stderr.write(`Zone ${zone.id} added: ${changed} post${changed === 1 ? '' : 's'} now shown ${zone.level}.\n`)
      out(String(zone.id))
    },
  },
  'zone list': {
    usage: 'places zone list',
    summary: 'list the privacy zones: id, level, radius in metres, latitude, longitude, name',
    options: json,
    run: async (values) => {
      const { listZones } = await import('../lib/places/zones')
      const list = await listZones(OPERATOR)
      if (values.json) return out(JSON.stringify(list))
      for (const zone of list) out([zone.id, zone.level, zone.radiusMetres, zone.latitude, zone.longitude, zone.name].join('\t'))
    },
  },
  'zone remove': {
    usage: 'places zone remove ID',
    summary: 'remove a privacy zone: the posts inside are shown at their own level again',
    options: json,
    positionals: 'one',
    run: async (values, [arg]) => {
      const [{ parsePostId }, { removeZone }] = await Promise.all([import('../lib/places/schemas'), import('../lib/places/zones')])
      const id = parsePostId(arg!)
      if (id === null) throw new UsageError(`"${arg}" is not a zone id`)
      const { changed } = await removeZone(OPERATOR, id)
      out(values.json ? JSON.stringify({ removed: id, changed }) : `Removed zone ${id}: ${changed} post${changed === 1 ? '' : 's'} shown differently now.`)
    },
  },
  'trip list': {
    usage: 'places trip list',
    summary: 'list the trips, drafts too: id, status, route level, start, km, points, posts, slug, title',
    options: json,
    run: async (values) => {
      const { listTrips } = await import('../lib/trips/manage')
      const list = await listTrips(OPERATOR)
      if (values.json) return out(JSON.stringify(list))
      for (const trip of list) {
        const start = trip.startedAt?.slice(0, 10) ?? '-'
        out(
          [trip.id, trip.status, trip.routePrecision, start, (trip.distanceMetres / 1000).toFixed(1), trip.points, trip.posts, trip.slug, trip.title].join(
            '\t',
          ),
        )
      }
    },
  },
  'trip set': {
    usage: 'places trip set ID [--title T] [--description D] [--status publish|draft] [--level exact|approximate|hidden]',
    summary: 'change a trip: its title, description, status, or the level the public sees its route at',
    help: 'A draft trip is seen by no visitor. --level approximate draws the route through the ~1 km cells of the approximate\nlevel; hidden draws none (docs/privacy.md, Trips). Its posts keep their own levels.',
    options: { title: { type: 'string' }, description: { type: 'string' }, status: { type: 'string' }, level: { type: 'string' }, ...json },
    positionals: 'one',
    run: async (values, [arg]) => {
      const [{ parsePostId }, { updateTrip }] = await Promise.all([import('../lib/places/schemas'), import('../lib/trips/manage')])
      const id = parsePostId(arg!)
      if (id === null) throw new UsageError(`"${arg}" is not a trip id`)
      const input = { title: values.title, description: values.description, status: values.status, routePrecision: values.level }
      if (Object.values(input).every((value) => value === undefined))
        throw new UsageError('nothing to change: give --title, --description, --status or --level')
      await withFlagErrors(() => updateTrip(OPERATOR, id, input), { routePrecision: 'level' })
      out(values.json ? JSON.stringify({ updated: id }) : `Trip ${id} changed.`)
    },
  },
  'trip remove': {
    usage: 'places trip remove ID',
    summary: 'delete a trip and its tracks; its posts stay, on no trip',
    options: json,
    positionals: 'one',
    run: async (values, [arg]) => {
      const [{ parsePostId }, { deleteTrip }] = await Promise.all([import('../lib/places/schemas'), import('../lib/trips/manage')])
      const id = parsePostId(arg!)
      if (id === null) throw new UsageError(`"${arg}" is not a trip id`)
      await deleteTrip(OPERATOR, id)
      out(values.json ? JSON.stringify({ removed: id }) : `Removed trip ${id}.`)
    },
  },
  'media import': {
    usage: 'places media import --post ID [--title T] FILE...',
    summary: 'attach images to post ID, in the order given, reading their GPS once; prints attachment ids',
    options: { post: { type: 'string' }, title: { type: 'string' }, ...json },
    positionals: 'many',
    run: async (values, files) => {
      const [{ parsePostId }, { getDb }, { storeAttachment }, { removeAttachments }] = await Promise.all([
        import('../lib/places/schemas'),
        import('../lib/db'),
        import('../lib/media/storage'),
        import('../lib/media/attachments'),
      ])
      const postId = parsePostId(required(values, 'post'))
      if (postId === null) throw new UsageError('--post must be a post id')
      if (!(await getDb().post.findUnique({ where: { id: postId }, select: { id: true } }))) {
        throw new ApiError('rest_post_invalid_id', `There is no post ${postId}.`)
      }
      const stored: { id: number }[] = []
      const report = progress('Storing')
      try {
        for (const file of files) {
          const title = typeof values.title === 'string' ? values.title : undefined
          try {
            const handle = await open(file)
            stored.push(await storeAttachment({ postId, filename: file, title, body: handle.createReadStream() }))
          } catch (error) {
            const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message
            throw new ApiError('places_media_import', `${file}: ${reason} Nothing was attached.`)
          }
          report?.(stored.length, files.length)
        }
      } catch (error) {
        await removeAttachments(stored.map((a) => a.id))
        throw error
      }
      if (values.json) return out(JSON.stringify(stored))
      await outLines(stored.map((a) => a.id))
    },
  },
  'media regenerate': {
    usage: 'places media regenerate',
    summary: 'make the sizes pages show (160, 480, 800, 1600 px; JPEG and WebP) of every attachment anew from its original',
    options: json,
    positionals: 'none',
    run: async (values) => {
      const [{ regenerateRenditions }, { storeLocation }] = await Promise.all([import('../lib/media/regenerate'), import('../lib/media/store')])
      const summary = await regenerateRenditions(progress('Regenerating'))
      if (values.json) return out(JSON.stringify(summary))
      out(`Regenerated the sizes of ${summary.regenerated} of ${summary.attachments} attachments.`)
      if (summary.undecodable > 0) out(`${summary.undecodable} could not be decoded: they have no sizes, and pages show no picture of them.`)
      if (summary.missing > 0) out(`${summary.missing} have no original file in ${storeLocation(undefined, 'originals')}: left as they were.`)
      if (summary.timedOut > 0) out(`${summary.timedOut} HEIC photos took the decoder past its time limit: left as they were.`)
    },
  },
  'media move-storage': {
    usage: 'places media move-storage --to s3|disk [--verify]',
    summary: 'copy every photo file into the bucket (or back to UPLOADS_DIR), resumably, before switching MEDIA_STORAGE',
    help:
      'Copies each file the database names (originals, public copies, sizes) from the other store, leaving those already there\n' +
      'at the same size: run it again to resume. --verify compares every file byte for byte. Nothing is removed from the source.\n' +
      'Then set MEDIA_STORAGE to the new store on every instance, restart them, and run it once more for the uploads made meanwhile.',
    options: { to: { type: 'string' }, verify: { type: 'boolean' }, ...json },
    positionals: 'none',
    run: async (values) => {
      const to = required(values, 'to')
      if (to !== 's3' && to !== 'disk') throw new UsageError('--to must be s3 or disk')
      const [{ moveStorage }, { storeLocation }] = await Promise.all([import('../lib/media/move-storage'), import('../lib/media/store')])
      const summary = await moveStorage(to, { verify: values.verify === true, onProgress: progress('Copying') })
      if (values.json) return out(JSON.stringify(summary))
      out(`Copied ${summary.copied} of ${summary.files} files to ${storeLocation(to)}; ${summary.present} were there already.`)
      if (summary.mismatched > 0) out(`${summary.mismatched} were there with other bytes, and were copied again.`)
      if (summary.missing > 0) out(`${summary.missing} are in neither store (a public copy is not made of an image whose metadata could not be removed).`)
      out(`Now set MEDIA_STORAGE=${to} on every instance and restart them; then run this once more for the uploads made meanwhile.`)
    },
  },
  geocode: {
    usage: 'places geocode --missing [--post-type T] [--dry-run]',
    summary: 'fill the empty addresses of posts with a location from the offline gazetteer ("Place, Region, Country")',
    help: 'Only empty addresses are filled; a typed one is never replaced. A point with no populated place near (the sea, the ice)\nkeeps its empty address, and the summary says how many. --dry-run prints what would be written and writes nothing.\nPosts of type `post` unless --post-type; posts in the Trash are left alone.',
    options: { missing: { type: 'boolean' }, 'post-type': { type: 'string' }, 'dry-run': { type: 'boolean' }, ...json },
    run: async (values) => {
      if (!values.missing) throw new UsageError('--missing is required: only empty addresses are filled')
      const dryRun = values['dry-run'] === true
      const { geocodeMissing } = await import('../lib/places/locate')
      const report = await geocodeMissing({ postType: await postTypeOf(values), dryRun, onProgress: progress(dryRun ? 'Looking up' : 'Geocoding') })
      if (values.json) return out(JSON.stringify(report))
      for (const post of report.posts) {
        out(
          `Post ${post.id} “${post.title}”: ${post.address === null ? 'no populated place near, left empty' : `${dryRun ? 'would be ' : ''}“${post.address}”`}`,
        )
      }
      const { posts, filled, noPlace } = report.summary
      out(
        posts === 0
          ? 'No post with a location has an empty address.'
          : `${dryRun ? 'Would fill' : 'Filled'} ${filled} of ${posts} empty address${posts === 1 ? '' : 'es'}${noPlace > 0 ? `; ${noPlace} at no populated place within ${MAX_DISTANCE_KM} km (at sea or far from any town) ${noPlace === 1 ? 'stays' : 'stay'} empty` : ''}.`,
      )
      if (dryRun) out('Dry run: nothing was written.')
    },
  },
  locate: {
    usage:
      'places locate --from-media [--missing-only] [--post-type T] [--dry-run]\n       places locate --from-track FILE.gpx [--camera-offset +01:12] [--max-gap 10m] [--author E] [--post-type T] [--dry-run]',
    summary: "set each post's location from its first photo with GPS, or place photos without GPS by their time on a GPS track",
    help: [
      "--from-media: the point is the first attached photo's GPS, as GET /places/v1/attachment-exif-gps/{id} answers it, at 7",
      "decimals. A post with a location gets the photo's point too, unless --missing-only; an address is filled only when empty.",
      "--from-track: each photo without GPS is placed where the file's tracks (GPX, or KML's gx:Track) were when it was",
      "taken: its EXIF time, at its own offset or else in the site's time zone, corrected by --camera-offset (added to every",
      "camera's times: +01:12 for clocks 1 h 12 min behind, --camera-offset=-00:20 for ones ahead) or, when not given, by",
      "what each camera's photos with GPS say. A photo further than --max-gap (10m unless told) from the track's points",
      "either side is skipped. Each post without a location then takes its first photo's point. docs/trips.md says more.",
      'Posts of type `post` unless --post-type, of every author unless --author (an email); posts in the Trash are left',
      'alone. --dry-run writes nothing.',
    ].join('\n'),
    options: {
      'from-media': { type: 'boolean' },
      'from-track': { type: 'string' },
      'camera-offset': { type: 'string' },
      'max-gap': { type: 'string' },
      author: { type: 'string' },
      'missing-only': { type: 'boolean' },
      'post-type': { type: 'string' },
      'dry-run': { type: 'boolean' },
      ...json,
    },
    run: async (values) => {
      const fromTrack = values['from-track']
      if ((values['from-media'] === true) === (typeof fromTrack === 'string')) {
        throw new UsageError('give one of --from-media and --from-track FILE.gpx: photos are where locations come from')
      }
      if (typeof fromTrack === 'string') return locateFromTrack(fromTrack, values)
      for (const flag of ['camera-offset', 'max-gap', 'author']) if (values[flag] !== undefined) throw new UsageError(`--${flag} is for --from-track`)
      const dryRun = values['dry-run'] === true
      const { locateFromMedia } = await import('../lib/places/locate')
      const report = await locateFromMedia({
        postType: await postTypeOf(values),
        missingOnly: values['missing-only'] === true,
        dryRun,
        onProgress: progress(dryRun ? 'Looking' : 'Locating'),
      })
      if (values.json) return out(JSON.stringify(report))
      for (const post of report.posts) {
        if (post.outcome === 'set' || post.reason === 'no_photo_gps') out(`Post ${post.id} “${post.title}”: ${post.note}`)
      }
      for (const line of describeLocateSummary(report.summary)) out(line)
    },
  },
}

/** `places locate --from-track FILE`: its flags checked, the photos placed, each told of, then the summary. */
async function locateFromTrack(file: string, values: Values): Promise<void> {
  const { describeClock, describeGap, describeSkip, parseClockOffset, parseDuration, DEFAULT_MAX_GAP_MS } = await import('../lib/trips/match')
  if (values['missing-only']) throw new UsageError('--missing-only is for --from-media: --from-track never moves a post that has a location')
  let cameraOffsetMs: number | undefined
  if (typeof values['camera-offset'] === 'string') {
    cameraOffsetMs = parseClockOffset(values['camera-offset']) ?? undefined
    if (cameraOffsetMs === undefined)
      throw new UsageError("--camera-offset must be hours and minutes to add to the camera's times, such as +01:12 or -00:30:15")
  }
  let maxGapMs = DEFAULT_MAX_GAP_MS
  if (typeof values['max-gap'] === 'string') {
    const parsed = parseDuration(values['max-gap'])
    if (parsed === null || parsed === 0) throw new UsageError('--max-gap must be a time such as 90s, 10m or 1h')
    maxGapMs = parsed
  }
  const postType = await postTypeOf(values)
  const authorId = typeof values.author === 'string' ? await (await import('../lib/users')).getUserIdByEmailOrThrow(values.author) : undefined
  const [{ readTrackFile }, { locateFromTrack: locate }] = await Promise.all([import('../lib/places/formats/read'), import('../lib/trips/locate-from-track')])
  const tracks = await readTrackFile(file)
  if (!tracks.some((track) => track.times.some((time) => !Number.isNaN(time)))) {
    throw new Error(
      `${file} has no track point with a time (${tracks.length === 0 ? 'no track at all' : 'a route, or a track without times'}): photos are placed by their time on a track`,
    )
  }
  const dryRun = values['dry-run'] === true
  const report = await locate({ tracks, postType, authorId, cameraOffsetMs, maxGapMs, dryRun, onProgress: progress('Reading photos') })
  if (values.json) return out(JSON.stringify(report))
  const would = dryRun ? 'would be ' : ''
  const { track } = report
  const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ')
  out(
    `${track.tracks === 1 ? '1 track' : `${track.tracks} tracks`}, ${track.timedPoints} of ${track.points} points with a time, ` +
      `from ${minute(track.from)} to ${minute(track.to)} UTC, ${(track.distanceM / 1000).toFixed(1)} km` +
      `${track.elevationGainM === null ? '' : `, ${track.elevationGainM} m climbed`}`,
  )
  for (const clock of report.cameras) out(describeClock(clock))
  const start = Date.parse(track.from)
  for (const photo of report.photos) {
    const name = `Photo ${photo.id}${photo.title ? ` (“${photo.title}”)` : ''} of post ${photo.postId}`
    if (photo.outcome === 'skipped') out(`${name}: skipped, ${describeSkip(photo, start)}`)
    else {
      const sure = photo.outcome === 'placed' ? '' : 'unsure: '
      out(`${name}: ${sure}${would}placed at ${photo.latitude}, ${photo.longitude}, within ${describeGap(photo.gapMs!)} of the track's points`)
    }
  }
  for (const post of report.posts.posts) if (post.outcome === 'set') out(`Post ${post.id} “${post.title}”: ${post.note}`)
  const { summary } = report
  const photos = (n: number) => `${n} photo${n === 1 ? '' : 's'}`
  const reasons = [
    summary.skippedBy.no_time > 0 ? `${summary.skippedBy.no_time} without a time` : null,
    summary.skippedBy.outside_track > 0 ? `${summary.skippedBy.outside_track} taken outside the track's time` : null,
    summary.skippedBy.track_gap > 0 ? `${summary.skippedBy.track_gap} in gaps of the track` : null,
    summary.skippedBy.no_file > 0 ? `${summary.skippedBy.no_file} whose file is missing` : null,
  ].filter(Boolean)
  const set = report.posts.summary.set
  out(summary.photos === 0 ? 'No photos without GPS to place.' : `Looked at ${photos(summary.photos)} without GPS.`)
  if (summary.photos > 0) {
    out(
      `${dryRun ? 'Would place' : 'Placed'} ${photos(summary.placed + summary.unsure)}${summary.unsure > 0 ? ` (${summary.unsure} unsure: minutes from the track's points)` : ''}.`,
    )
    if (summary.skipped > 0) out(`Skipped ${photos(summary.skipped)}: ${reasons.join(', ')}.`)
    out(`${dryRun ? 'Would set' : 'Set'} the location of ${set} post${set === 1 ? '' : 's'} without one.`)
  }
  if (dryRun) out('Dry run: nothing was written.')
}

/** --post-type, checked as post types are everywhere, `post` when not given. */
async function postTypeOf(values: Values): Promise<string> {
  if (values['post-type'] === undefined) return 'post'
  const { postTypeSchema } = await import('../lib/places/post-fields')
  const parsed = postTypeSchema.safeParse(values['post-type'])
  if (!parsed.success) throw new UsageError(`--post-type ${parsed.error.issues[0]?.message ?? 'is not a post type'}`)
  return parsed.data
}

/** The summary of `places locate`, a line for each kind of outcome there was. */
function describeLocateSummary(summary: LocateSummary): string[] {
  const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`
  const { skippedBy } = summary
  const would = summary.dryRun ? 'Would set' : 'Set'
  const reasons = [
    skippedBy.no_photo_gps > 0 ? `${skippedBy.no_photo_gps} without a photo with GPS` : null,
    skippedBy.has_location > 0 ? `${skippedBy.has_location} with a location already (--missing-only)` : null,
  ].filter(Boolean)
  return [
    summary.posts === 0 ? 'No posts to look at.' : `Looked at ${posts(summary.posts)}.`,
    ...(summary.posts === 0
      ? []
      : [
          `${would} the location of ${posts(summary.set)}${summary.addressesFilled > 0 ? `, ${summary.dryRun ? 'filling' : 'and filled'} ${summary.addressesFilled} empty address${summary.addressesFilled === 1 ? '' : 'es'}` : ''}.`,
          ...(summary.unchanged > 0 ? [`Unchanged: ${posts(summary.unchanged)} already at their photo's point.`] : []),
          ...(summary.skipped > 0 ? [`Skipped ${posts(summary.skipped)}: ${reasons.join(', ')}.`] : []),
          ...(summary.noPlace > 0
            ? [`${posts(summary.noPlace)} at no populated place within ${MAX_DISTANCE_KM} km (at sea or far from any town): the address stays empty.`]
            : []),
        ]),
    ...(summary.dryRun ? ['Dry run: nothing was written.'] : []),
  ]
}

/**
 * What `places import` says it did: how many of the file's items it took, and skipped, from a file of `format`, and
 * the trip its lines made.
 */
function importSummary(read: ImportFile, format: string, taken: number, dryRun: boolean, tripSlug?: string): string {
  const items = (n: number) => `${n} ${read.item}${n === 1 ? '' : 's'}`
  const lines = read.trip?.tracks.length ?? 0
  const trip = read.trip && tripSlug ? `, and ${lines} ${lines === 1 ? 'line' : 'lines'} as the trip “${read.trip.title}” (/trip/${tripSlug})` : ''
  const skipped = read.skipped.length > 0 ? `; skipped ${read.skipped.length} that ${read.skipped.length === 1 ? 'is' : 'are'} no place (listed above)` : ''
  const done = `${dryRun ? 'Would import' : 'Imported'} ${items(taken)} from ${format}${trip}${skipped}.`
  return dryRun ? `${done}\nDry run: nothing was written.` : done
}

/** Runs `action`; an invalid parameter is a usage error naming the command's flag for it (`--radius: must be …`). */
/** `--columns title=Titel,latitude=Breitengrad`: each field of `fields` and the header of its column. */
function parseColumns<Field extends string>(text: string, fields: readonly Field[]): Partial<Record<Field, string>> {
  const columns: Partial<Record<Field, string>> = {}
  for (const pair of text.split(',')) {
    const [field = '', column = ''] = pair.split(/=(.*)/s, 2).map((part) => part.trim())
    if (!(fields as readonly string[]).includes(field)) {
      throw new UsageError(`--columns: "${field}" is not a field; the fields are ${fields.join(', ')}`)
    }
    if (!column) throw new UsageError(`--columns: ${field} needs a column's header after "="`)
    if (field in columns) throw new UsageError(`--columns: ${field} is given twice`)
    columns[field as Field] = column
  }
  return columns
}

async function withFlagErrors<T>(action: () => Promise<T>, flags: Record<string, string>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    const params = error instanceof ApiError && error.code === 'rest_invalid_param' ? (error.data.params as Record<string, string> | undefined) : undefined
    if (!params) throw error
    throw new UsageError(
      Object.entries(params)
        .map(([field, problem]) => `--${flags[field] ?? field}: ${problem}`)
        .join('; '),
    )
  }
}

function help(): string {
  // A command of two forms has a usage line for each (`locate`); its summary goes beside the first.
  const lines = (c: Command) => c.usage.split('\n').map((line) => line.trim())
  const width = Math.max(...Object.values(commands).flatMap((c) => lines(c).map((line) => line.length)))
  return [
    'Usage: places <command> [options]',
    '',
    'Commands:',
    ...Object.values(commands).flatMap((c) => lines(c).map((line, index) => `  ${line.padEnd(width)}${index === 0 ? `  ${c.summary}` : ''}`.trimEnd())),
    '',
    'Every command reads DATABASE_URL (default file:./data/places.db), SITE_URL and UPLOADS_DIR, as the server does,',
    'and migrates the database first. Add --help after a command for its usage; --json prints JSON.',
  ].join('\n')
}

/** Runs one command: its output on this process's stdout and stderr; resolves with its exit code (bin/run.ts). */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    out(help())
    return argv.length === 0 ? 2 : 0
  }
  const name = commands[`${argv[0]} ${argv[1]}`] ? `${argv[0]} ${argv[1]}` : argv[0]!
  const command = commands[name]
  if (!command) {
    process.stderr.write(`places: unknown command "${argv.slice(0, 2).join(' ')}"\n\n${help()}\n`)
    return 2
  }
  const rest = argv.slice(name.split(' ').length)
  try {
    if (rest.includes('--help') || rest.includes('-h')) {
      out(`Usage: ${command.usage}\n\n${command.summary}${command.help ? `\n\n${command.help}` : ''}`)
      return 0
    }
    const { values, positionals } = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true })
    const expected = command.positionals ?? 'none'
    if (expected === 'none' && positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`)
    if (expected === 'one' && positionals.length !== 1) throw new UsageError('expects exactly one argument')
    if (expected === 'many' && positionals.length === 0) throw new UsageError('expects at least one file')
    if (name !== 'migrate') await (await import('../lib/migrate')).migrate()
    await command.run(values as Values, positionals)
    return 0
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`places ${name}: ${(error as Error).message}\nUsage: ${command.usage}\n`)
      return 2
    }
    process.stderr.write(`places ${name}: ${error instanceof ApiError ? error.message : String((error as Error).message ?? error)}\n`)
    return 1
  } finally {
    await closeAll()
  }
}
