import 'server-only'
import { cache } from 'react'
import { z } from 'zod'
import { OPERATOR, type Caller } from './auth/callers'
import { canManageSettings } from './auth/capabilities'
import { getDb, readDataVersion, type Tx } from './db'
import { forbidden } from './http/errors'
import { parseOrThrow } from './http/params'

// The site's own settings, WordPress's Settings → General: its title, tagline, language and time zone (README.md,
// "Site settings"). Administrators set them at /admin/settings, operators with `places site set`; every surface that
// names the site reads them here.

export type SiteSettings = { title: string; tagline: string; language: string; timezone: string }
export type SiteSettingName = keyof SiteSettings

export const DEFAULT_SETTINGS: Readonly<SiteSettings> = { title: 'Places', tagline: '', language: 'en', timezone: 'UTC' }
/** What the site is when its tagline is empty: its pages' meta description, its feeds' and the REST index's. */
const DEFAULT_DESCRIPTION = 'Geotagged posts on a map'

const MAX_TITLE = 200
const MAX_TAGLINE = 500

/**
 * A BCP 47 language tag as pages declare it: a language, and optionally a script, a region and variants (en, de,
 * pt-BR, zh-Hant-TW, de-DE-formal as WordPress's de_DE_formal).
 */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Z][a-z]{3})?(-([A-Z]{2}|\d{3}))?(-([a-z\d]{5,8}|\d[a-z\d]{3}))*$/
/** Line breaks, tabs and other control characters: a title or tagline is one line of text. */
const ONE_LINE = /^[^\u0000-\u001f\u007f]*$/
const ONE_LINE_MESSAGE = 'must be one line, without control characters'

/** `language` canonical (WordPress's `de_DE` becomes `de-DE`), or null when it is no language tag. */
export function languageTag(language: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(language.trim().replaceAll('_', '-'))
    return canonical && LANGUAGE_TAG.test(canonical) ? canonical : null
  } catch {
    return null
  }
}

/**
 * `timezone` if it is an IANA time zone (offsets are not), spelt as the runtime lists it when it lists it (`utc` is
 * `UTC`); a zone it knows by another name is kept as given (Node 20 lists Asia/Calcutta, not Asia/Kolkata). Else null.
 */
export function timeZoneName(timezone: string): string | null {
  const name = timezone.trim()
  if (!/^[A-Za-z]/.test(name)) return null
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
  } catch {
    return null
  }
  return timeZoneNames().find((listed) => listed.toLowerCase() === name.toLowerCase()) ?? name
}

let zones: string[] | undefined

/** The time zones offered in the admin: UTC, then every IANA zone the runtime lists, by name. */
export function timeZoneNames(): string[] {
  zones ??= ['UTC', ...Intl.supportedValuesOf('timeZone').filter((name) => name !== 'UTC')]
  return zones
}

const settingsSchema = z
  .object({
    title: z.string().trim().min(1, 'must not be empty').max(MAX_TITLE, `must be at most ${MAX_TITLE} characters`).regex(ONE_LINE, ONE_LINE_MESSAGE),
    tagline: z.string().trim().max(MAX_TAGLINE, `must be at most ${MAX_TAGLINE} characters`).regex(ONE_LINE, ONE_LINE_MESSAGE),
    language: z.string().transform((value, context) => languageTag(value) ?? (context.addIssue('must be a language tag, such as en, de or pt-BR'), z.NEVER)),
    timezone: z.string().transform((value, context) => timeZoneName(value) ?? (context.addIssue('must be a time zone, such as UTC or Europe/Berlin'), z.NEVER)),
  })
  .partial()
  .strict()

type Row = { [name in SiteSettingName]: string | null }

function withDefaults(row: Row | null): SiteSettings {
  const timezone = row?.timezone ? timeZoneName(row.timezone) : null
  // A zone this runtime does not know (saved by another's, or by hand) would fail every date shown: UTC, and said.
  if (row?.timezone && timezone === null) console.warn(`site_settings: unknown time zone "${row.timezone}"; showing dates in UTC`)
  return {
    title: row?.title ?? DEFAULT_SETTINGS.title,
    tagline: row?.tagline ?? DEFAULT_SETTINGS.tagline,
    language: row?.language ?? DEFAULT_SETTINGS.language,
    timezone: timezone ?? DEFAULT_SETTINGS.timezone,
  }
}

const sameSettings = (a: SiteSettings, b: SiteSettings) =>
  a.title === b.title && a.tagline === b.tagline && a.language === b.language && a.timezone === b.timezone

let cached: { version: number; settings: SiteSettings } | undefined

/**
 * The settings, read again only when the data version has changed (a change of settings bumps it, on every instance
 * that shares the database); the same object while they stay the same, so that what is made of them can be kept.
 */
export const getSiteSettings = cache(async (): Promise<SiteSettings> => {
  const version = await readDataVersion()
  if (cached?.version === version) return cached.settings
  const settings = withDefaults(await getDb().siteSettings.findUnique({ where: { id: 1 } }))
  cached = { version, settings: cached && sameSettings(cached.settings, settings) ? cached.settings : settings }
  return cached.settings
})

/** The line that says what the site is: its tagline, or a default one. */
export function siteDescription(settings: SiteSettings): string {
  return settings.tagline || DEFAULT_DESCRIPTION
}

/**
 * Changes the settings given (administrators, and the operator): each is checked, and a bad one is a 400 naming it
 * with nothing changed. Answers the settings as they are now.
 */
export async function updateSiteSettings(actor: Caller, input: unknown): Promise<SiteSettings> {
  if (actor !== OPERATOR && !canManageSettings(actor)) throw forbidden()
  const values = parseOrThrow(settingsSchema, input)
  const db = getDb()
  const row =
    Object.keys(values).length > 0 ? await db.siteSettings.update({ where: { id: 1 }, data: values }) : await db.siteSettings.findUnique({ where: { id: 1 } })
  return withDefaults(row)
}

/**
 * Sets those of `values` that were never set and are valid (a WordPress export's channel: its title, description,
 * language), in the import's transaction; answers the names it set. Each only where still NULL, whatever ran meanwhile.
 */
export async function fillSiteSettings(tx: Tx, values: Partial<SiteSettings>): Promise<SiteSettingName[]> {
  const set: SiteSettingName[] = []
  for (const [name, value] of Object.entries(values) as [SiteSettingName, string][]) {
    const parsed = settingsSchema.safeParse({ [name]: value })
    if (!parsed.success || !parsed.data[name]) continue
    const { count } = await tx.siteSettings.updateMany({ where: { id: 1, [name]: null }, data: { [name]: parsed.data[name] } })
    if (count > 0) set.push(name)
  }
  return set
}
