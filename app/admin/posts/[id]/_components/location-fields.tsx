'use client'

import type { Dispatch } from 'react'
import { formatCoordinate } from '@/app/admin/_components/format'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { LocationPickerLoader } from '@/app/admin/_components/location-picker-loader'
import type { Tiles } from '@/app/admin/_components/location-picker'
import type { FieldErrors, PostFormValues } from '@/lib/admin/forms'
import { typedLocation, type EditorAction, type GpsState } from './post-editor-state'

/** The attributes that give a field its id and tie it to its problem (FieldError). */
export type FieldAttributes = { id: string; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined }

type Props = {
  values: PostFormValues
  errors: FieldErrors
  field: (name: keyof PostFormValues) => FieldAttributes
  gps: GpsState
  recenter: number
  tiles: Tiles
  dispatch: Dispatch<EditorAction>
  onImportFromMedia: () => void
}

const COORDINATES = [
  { name: 'latitude', label: 'Latitude', hint: '−90 to 90, north positive' },
  { name: 'longitude', label: 'Longitude', hint: '−180 to 180, east positive' },
] as const

/**
 * A post's location: its address, coordinates typed or picked on the map or imported from its photos (asking before
 * replacing one), and whether the public sees it.
 */
export function LocationFields({ values, errors, field, gps, recenter, tiles, dispatch, onImportFromMedia }: Props) {
  const location = typedLocation(values)
  const edit = (patch: Partial<PostFormValues>) => dispatch({ type: 'edited', patch })
  return (
    <fieldset className="location">
      <legend>Location</legend>
      <div className="field">
        <label htmlFor="post-address">Address</label>
        <input {...field('address')} value={values.address} onChange={(e) => edit({ address: e.target.value })} autoComplete="off" />
        <FieldError id="post-address" message={errors.address} />
      </div>
      <div className="coordinates">
        {COORDINATES.map(({ name, label, hint }) => (
          <div className="field" key={name}>
            <label htmlFor={`post-${name}`}>{label}</label>
            <input
              {...field(name)}
              aria-describedby={describedBy(`post-${name}`, errors[name], `${name}-hint`)}
              inputMode="decimal"
              value={values[name]}
              onChange={(e) => edit({ [name]: e.target.value })}
              onBlur={() => {
                dispatch({ type: 'left', fields: [name] })
                dispatch({ type: 'recentered' })
              }}
            />
            <p id={`${name}-hint`} className="hint">
              {hint}
            </p>
            <FieldError id={`post-${name}`} message={errors[name]} />
          </div>
        ))}
      </div>
      <p className="hint" id="map-hint">
        Click the map to put the location there, or drag the marker.
      </p>
      <LocationPickerLoader
        latitude={location?.latitude ?? null}
        longitude={location?.longitude ?? null}
        onPick={(latitude, longitude) => dispatch({ type: 'locationPicked', latitude, longitude })}
        tiles={tiles}
        recenter={recenter}
      />
      <div className="inline">
        <button type="button" className="secondary" onClick={onImportFromMedia} disabled={gps.state === 'loading'}>
          {gps.state === 'loading' ? 'Looking at the photos…' : 'Import location from media'}
        </button>
        <button type="button" className="secondary" onClick={() => edit({ latitude: '', longitude: '' })} disabled={!values.latitude && !values.longitude}>
          Clear location
        </button>
      </div>
      <div aria-live="polite" className="gps-status">
        {gps.state === 'confirm' && (
          <div className="confirm" role="group" aria-label="Replace the location?">
            <p>
              This post already has a location ({formatCoordinate(location?.latitude ?? 0)}, {formatCoordinate(location?.longitude ?? 0)}). Replace it with the
              one from the photo “{gps.found.attachment_title}” ({formatCoordinate(gps.found.latitude)}, {formatCoordinate(gps.found.longitude)})?
            </p>
            <button type="button" onClick={() => dispatch({ type: 'gpsReplaced' })}>
              Replace location
            </button>{' '}
            <button type="button" className="secondary" onClick={() => dispatch({ type: 'gpsKept' })}>
              Keep current location
            </button>
          </div>
        )}
        {gps.state === 'message' && (
          <p className={`gps-message ${gps.tone}`} role={gps.tone === 'error' ? 'alert' : 'status'}>
            {gps.text}
          </p>
        )}
      </div>
      <label className="checkbox">
        <input type="checkbox" checked={values.locationPublic} onChange={(e) => edit({ locationPublic: e.target.checked })} aria-describedby="public-hint" />
        Show the location publicly
      </label>
      <p id="public-hint" className="hint">
        Off: the post is not on the public map or in the GeoJSON API (WordPress’s geo_public).
      </p>
    </fieldset>
  )
}
