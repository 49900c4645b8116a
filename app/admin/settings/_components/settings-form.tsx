'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import type { FieldErrors } from '@/lib/http/params'
import type { SiteSettings } from '@/lib/site'
import { updateSettingsAction } from '../actions'

/** The zones by their region (`Europe/Berlin` under Europe), as WordPress's menu; UTC and the like on their own. */
function byRegion(zones: string[]): [string, string[]][] {
  const groups = new Map<string, string[]>()
  for (const zone of zones) {
    const region = zone.includes('/') ? zone.slice(0, zone.indexOf('/')) : ''
    groups.set(region, [...(groups.get(region) ?? []), zone])
  }
  return [...groups]
}

export function SettingsForm({ settings: initial, timeZones }: { settings: SiteSettings; timeZones: string[] }) {
  // As saved: the fields show a value as the server spelt it (de_DE is saved as de-DE).
  const [settings, setSettings] = useState(initial)
  const [errors, setErrors] = useState<FieldErrors>({})
  const [message, setMessage] = useState<NoticeValue>()
  const [pending, startTransition] = useTransition()

  function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const values = Object.fromEntries(new FormData(event.currentTarget))
    startTransition(async () => {
      const result = await updateSettingsAction(values)
      setErrors(result.ok ? {} : result.fieldErrors)
      setMessage(result.ok ? { tone: 'ok', text: 'Settings saved.' } : { tone: 'error', text: result.message })
      if (result.ok) setSettings(result.data)
    })
  }

  const field = (name: keyof SiteSettings, hint?: boolean) => ({
    id: `settings-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(`settings-${name}`, errors[name], hint ? `settings-${name}-hint` : undefined),
  })

  return (
    <>
      {/* Outside the form, which is made again with the values saved: a live region must stay to be heard. */}
      <div aria-live="polite">
        <Notice notice={message} />
      </div>
      <form key={JSON.stringify(settings)} className="admin-form narrow-form" onSubmit={onSave} noValidate aria-label="Settings">
        <div className="field">
          <label htmlFor="settings-title">Site title</label>
          <input {...field('title')} defaultValue={settings.title} required autoComplete="off" />
          <FieldError id="settings-title" message={errors.title} />
        </div>
        <div className="field">
          <label htmlFor="settings-tagline">Tagline</label>
          <input {...field('tagline', true)} defaultValue={settings.tagline} autoComplete="off" />
          <p id="settings-tagline-hint" className="hint">
            In a few words, what this site is about: shown under the title, and in search results and feeds.
          </p>
          <FieldError id="settings-tagline" message={errors.tagline} />
        </div>
        <div className="field">
          <label htmlFor="settings-language">Language of the posts</label>
          <input {...field('language', true)} defaultValue={settings.language} autoComplete="off" spellCheck={false} />
          <p id="settings-language-hint" className="hint">
            A language tag, such as en, de or pt-BR: browsers, screen readers and search engines read the pages in it.
          </p>
          <FieldError id="settings-language" message={errors.language} />
        </div>
        <div className="field">
          <label htmlFor="settings-timezone">Time zone</label>
          <select {...field('timezone', true)} defaultValue={settings.timezone}>
            {byRegion(timeZones).map(([region, zones]) =>
              region ? (
                <optgroup key={region} label={region}>
                  {zones.map((zone) => (
                    <option key={zone} value={zone}>
                      {zone.slice(region.length + 1).replaceAll('_', ' ')}
                    </option>
                  ))}
                </optgroup>
              ) : (
                zones.map((zone) => (
                  <option key={zone} value={zone}>
                    {zone}
                  </option>
                ))
              ),
            )}
          </select>
          <p id="settings-timezone-hint" className="hint">
            Dates are shown in this zone: choose a city in the same time zone as you.
          </p>
          <FieldError id="settings-timezone" message={errors.timezone} />
        </div>
        <button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save changes'}
        </button>
      </form>
    </>
  )
}
