'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { formatCoordinate } from '@/app/admin/_components/format'
import { LocationPickerLoader } from '@/app/admin/_components/location-picker-loader'
import type { Tiles } from '@/app/admin/_components/location-picker'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import type { FieldErrors } from '@/lib/http/params'
import { LOCATION_PRECISION_TEXT, ZONE_LEVELS } from '@/lib/places/location-levels'
import type { PrivacyZone } from '@/lib/places/zones'
import { addZoneAction, removeZoneAction } from '../actions'

const posts = (n: number) => `${n} post${n === 1 ? '' : 's'}`

export function Zones({ zones, tiles }: { zones: PrivacyZone[]; tiles: Tiles }) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [message, setMessage] = useState<NoticeValue>()
  const [pending, startTransition] = useTransition()
  const [centre, setCentre] = useState({ latitude: '', longitude: '' })
  const [recenter, setRecenter] = useState(0)
  const [formKey, setFormKey] = useState(0)

  function onAdd(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const values = Object.fromEntries(new FormData(event.currentTarget))
    startTransition(async () => {
      const result = await addZoneAction(values)
      if (!result.ok) {
        setErrors(result.fieldErrors)
        setMessage({ tone: 'error', text: result.message })
        return
      }
      setErrors({})
      setMessage({ tone: 'ok', text: `Zone added: ${posts(result.data.changed)} inside it now shown more coarsely.` })
      setCentre({ latitude: '', longitude: '' })
      setFormKey((k) => k + 1)
    })
  }

  function onRemove(zone: PrivacyZone) {
    if (!window.confirm(`Remove the zone${zone.name ? ` “${zone.name}”` : ''}? The posts inside are shown at their own level again.`)) return
    startTransition(async () => {
      const result = await removeZoneAction(zone.id)
      setMessage(
        result.ok
          ? { tone: 'ok', text: `Zone removed: ${posts(result.data.changed)} shown at their own level again.` }
          : { tone: 'error', text: result.message },
      )
    })
  }

  const field = (name: string) => ({
    id: `zone-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(`zone-${name}`, errors[name]),
  })
  const latitude = Number.parseFloat(centre.latitude)
  const longitude = Number.parseFloat(centre.longitude)

  return (
    <>
      <div aria-live="polite">
        <Notice notice={message} />
      </div>
      {zones.length === 0 ? (
        <p className="muted">No zones yet: every post is shown at its own level.</p>
      ) : (
        <table className="post-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Level</th>
              <th scope="col">Radius</th>
              <th scope="col">Centre</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {zones.map((zone) => (
              <tr key={zone.id}>
                <td>{zone.name || <span className="muted">(no name)</span>}</td>
                <td>{LOCATION_PRECISION_TEXT[zone.level].label}</td>
                <td>{zone.radiusMetres.toLocaleString('en')} m</td>
                <td>
                  {formatCoordinate(zone.latitude)}, {formatCoordinate(zone.longitude)}
                </td>
                <td>{zone.createdAt.slice(0, 10)}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    disabled={pending}
                    onClick={() => onRemove(zone)}
                    aria-label={`Remove the zone ${zone.name || zone.id}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>Add a zone</h2>
      <form key={formKey} className="admin-form narrow-form" onSubmit={onAdd} noValidate aria-label="Add a zone">
        <div className="field">
          <label htmlFor="zone-name">Name (only administrators see it)</label>
          <input {...field('name')} autoComplete="off" placeholder="Home" />
          <FieldError id="zone-name" message={errors.name} />
        </div>
        <p className="hint">Click the map for the centre, or type it.</p>
        <LocationPickerLoader
          latitude={Number.isFinite(latitude) ? latitude : null}
          longitude={Number.isFinite(longitude) ? longitude : null}
          onPick={(lat, lng) => setCentre({ latitude: formatCoordinate(lat), longitude: formatCoordinate(lng) })}
          tiles={tiles}
          recenter={recenter}
        />
        <div className="coordinates">
          <div className="field">
            <label htmlFor="zone-latitude">Latitude</label>
            <input
              {...field('latitude')}
              inputMode="decimal"
              value={centre.latitude}
              onChange={(e) => setCentre({ ...centre, latitude: e.target.value })}
              onBlur={() => setRecenter((n) => n + 1)}
            />
            <FieldError id="zone-latitude" message={errors.latitude} />
          </div>
          <div className="field">
            <label htmlFor="zone-longitude">Longitude</label>
            <input
              {...field('longitude')}
              inputMode="decimal"
              value={centre.longitude}
              onChange={(e) => setCentre({ ...centre, longitude: e.target.value })}
              onBlur={() => setRecenter((n) => n + 1)}
            />
            <FieldError id="zone-longitude" message={errors.longitude} />
          </div>
        </div>
        <div className="field">
          <label htmlFor="zone-radiusMetres">Radius in metres</label>
          <input {...field('radiusMetres')} inputMode="numeric" defaultValue="500" />
          <FieldError id="zone-radiusMetres" message={errors.radiusMetres} />
        </div>
        <div className="field">
          <label htmlFor="zone-level">Show the posts inside at least as</label>
          <select {...field('level')} defaultValue="city">
            {ZONE_LEVELS.map((level) => (
              <option key={level} value={level}>
                {LOCATION_PRECISION_TEXT[level].label}
              </option>
            ))}
          </select>
          <FieldError id="zone-level" message={errors.level} />
        </div>
        <button type="submit" disabled={pending}>
          Add zone
        </button>
      </form>
    </>
  )
}
