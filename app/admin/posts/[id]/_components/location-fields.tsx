'use client'

import { useEffect, useRef, useState, type Dispatch } from 'react'
import { formatCoordinate } from '@/app/admin/_components/format'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { LocationPickerLoader } from '@/app/admin/_components/location-picker-loader'
import type { LocationPickerProps, Tiles } from '@/app/admin/_components/location-picker'
import { PlaceFinder } from '@/app/admin/_components/place-finder'
import { findPlacesAction, suggestAddressAction } from '@/app/admin/posts/location-actions'
import type { PostFormValues } from '@/lib/admin/forms'
import type { FieldErrors } from '@/lib/http/params'
import type { AddressSuggestion, PlaceSuggestion } from '@/lib/admin/places'
import { distanceKm } from '@/lib/geo/precision'
import { LocationPrecisionField } from './location-precision-field'
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

/** Farther than this from where its address was set, a point may no longer be at that address: the editor asks. */
export const ADDRESS_DISTANCE_KM = 5

type Point = { latitude: number; longitude: number }

/** What the address part says: nothing, a message, or a question (the point moved far, or a suggestion was asked for). */
type AddressState =
  | { state: 'idle' }
  | { state: 'looking' }
  | { state: 'message'; tone: 'ok' | 'warning' | 'error'; text: string }
  | { state: 'ask'; reason: 'moved' | 'asked'; movedKm: number; suggestion: AddressSuggestion | null }

const noPlaceText = 'No town within 50 km of this point (the sea, or somewhere remote): no address to suggest.'

/**
 * The address tied to the point (docs/geocoding.md): where the address is empty, a move of the point fills in the
 * offline suggestion and says so; where it is not, a move of more than ADDRESS_DISTANCE_KM asks whether to keep it,
 * clear it or replace it. A typed address is never replaced without asking.
 */
function useAddressForPoint(location: Point | null, address: string, setAddress: (address: string) => void) {
  const [state, setState] = useState<AddressState>({ state: 'idle' })
  // Where the point was when the address was loaded, typed or chosen: moves are measured from here.
  const anchor = useRef<Point | null>(location)
  const lastPoint = useRef<Point | null>(location)
  const asked = useRef(0)
  const coordinateFocused = useRef(false)

  async function suggestionFor(point: Point): Promise<AddressSuggestion | null | { error: string }> {
    const result = await suggestAddressAction(point.latitude, point.longitude)
    return result.ok ? result.data : { error: result.message }
  }

  // Reads this render's address and question: called from the effect of the render in which the point moved.
  async function check(point: Point) {
    const question = ++asked.current
    const empty = address.trim() === ''
    const movedKm = anchor.current ? distanceKm(anchor.current, point) : 0
    if (!empty && anchor.current === null) anchor.current = point // an address typed before there was a point
    if (!empty && movedKm <= ADDRESS_DISTANCE_KM) {
      if (state.state === 'ask' && state.reason === 'moved') setState({ state: 'idle' })
      return
    }
    setState({ state: 'looking' })
    const found = await suggestionFor(point)
    if (question !== asked.current) return
    if (found && 'error' in found) return setState({ state: 'message', tone: 'error', text: `No address could be suggested: ${found.error}` })
    if (empty) {
      if (!found) return setState({ state: 'message', tone: 'warning', text: noPlaceText })
      anchor.current = point
      setAddress(found.label)
      return setState({ state: 'message', tone: 'ok', text: `Address suggested from the location: “${found.label}”. Check it before saving.` })
    }
    setState({ state: 'ask', reason: 'moved', movedKm, suggestion: found })
  }

  // Every move of the point: a click, a drag, the arrow keys, a photo's GPS. Typed coordinates count when the field
  // is left, not at each keystroke.
  const key = location ? `${location.latitude},${location.longitude}` : ''
  useEffect(() => {
    const previous = lastPoint.current
    lastPoint.current = location
    if (!location || coordinateFocused.current) return
    if (previous && previous.latitude === location.latitude && previous.longitude === location.longitude) return
    void check(location)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` is the location's value (the object is new each render); `check` is this render's
  }, [key])

  return {
    state,
    onCoordinateFocus: () => {
      coordinateFocused.current = true
    },
    onCoordinateBlur: () => {
      coordinateFocused.current = false
      if (location && (!anchor.current || anchor.current.latitude !== location.latitude || anchor.current.longitude !== location.longitude))
        void check(location)
    },
    /** The address typed by hand: the point as it is now is where it belongs. */
    onTyped: () => {
      asked.current++
      anchor.current = location
      if (state.state !== 'idle') setState({ state: 'idle' })
    },
    async suggest() {
      if (!location) return
      const question = ++asked.current
      setState({ state: 'looking' })
      const found = await suggestionFor(location)
      if (question !== asked.current) return
      if (found && 'error' in found) return setState({ state: 'message', tone: 'error', text: `No address could be suggested: ${found.error}` })
      if (!found) return setState({ state: 'message', tone: 'warning', text: noPlaceText })
      anchor.current = location
      if (address.trim() === '') {
        setAddress(found.label)
        return setState({ state: 'message', tone: 'ok', text: `Address suggested from the location: “${found.label}”. Check it before saving.` })
      }
      if (address.trim() === found.label) return setState({ state: 'message', tone: 'ok', text: `The address already is the suggestion, “${found.label}”.` })
      setState({ state: 'ask', reason: 'asked', movedKm: 0, suggestion: found })
    },
    answer(choice: 'keep' | 'clear' | 'replace') {
      if (state.state !== 'ask') return
      anchor.current = location
      if (choice === 'keep') return setState({ state: 'message', tone: 'ok', text: 'The address was kept as it was.' })
      if (choice === 'clear') {
        setAddress('')
        return setState({ state: 'message', tone: 'ok', text: 'The address was cleared.' })
      }
      if (state.suggestion) {
        setAddress(state.suggestion.label)
        setState({ state: 'message', tone: 'ok', text: `The address was replaced with “${state.suggestion.label}”.` })
      }
    },
  }
}

async function findPlaces(query: string): Promise<PlaceSuggestion[] | { error: string }> {
  const result = await findPlacesAction(query)
  return result.ok ? result.data : { error: result.message }
}

/**
 * A post's location: its address (tied to the point, above), coordinates typed or picked on the map or imported from
 * its photos (asking before replacing one), a town found by name, and whether the public sees it.
 */
export function LocationFields({ values, errors, field, gps, recenter, tiles, dispatch, onImportFromMedia }: Props) {
  const location = typedLocation(values)
  const edit = (patch: Partial<PostFormValues>) => dispatch({ type: 'edited', patch })
  const address = useAddressForPoint(location, values.address, (text) => edit({ address: text }))
  const [view, setView] = useState<LocationPickerProps['view']>(null)
  const [found, setFound] = useState<PlaceSuggestion | null>(null)
  const asking = address.state
  return (
    <fieldset className="location">
      <legend>Location</legend>
      <div className="field">
        <label htmlFor="post-address">Address</label>
        <input
          {...field('address')}
          value={values.address}
          onChange={(e) => {
            address.onTyped()
            edit({ address: e.target.value })
          }}
          autoComplete="off"
        />
        <FieldError id="post-address" message={errors.address} />
        <div className="inline">
          <button type="button" className="secondary" onClick={() => void address.suggest()} disabled={!location || asking.state === 'looking'}>
            Suggest address
          </button>
        </div>
      </div>
      <div aria-live="polite" className="address-status">
        {asking.state === 'ask' && (
          <div className="confirm" role="group" aria-label="Keep, clear or replace?">
            <p>
              {asking.reason === 'moved'
                ? `The location moved ${Math.round(asking.movedKm)} km from where the address was set. The address “${values.address}” may no longer be right.`
                : `Suggested address: “${asking.suggestion?.label}”. Replace “${values.address}” with it?`}
            </p>
            <button type="button" className="secondary" onClick={() => address.answer('keep')}>
              Keep the address
            </button>{' '}
            <button type="button" className="secondary" onClick={() => address.answer('clear')}>
              Clear it
            </button>{' '}
            {asking.suggestion && (
              <button type="button" onClick={() => address.answer('replace')}>
                Replace with “{asking.suggestion.label}”
              </button>
            )}
          </div>
        )}
        {asking.state === 'message' && (
          <p className={`gps-message ${asking.tone}`} role={asking.tone === 'error' ? 'alert' : 'status'}>
            {asking.text}
          </p>
        )}
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
              onFocus={address.onCoordinateFocus}
              onBlur={() => {
                dispatch({ type: 'left', fields: [name] })
                dispatch({ type: 'recentered' })
                address.onCoordinateBlur()
              }}
            />
            <p id={`${name}-hint`} className="hint">
              {hint}
            </p>
            <FieldError id={`post-${name}`} message={errors[name]} />
          </div>
        ))}
      </div>
      <PlaceFinder
        find={findPlaces}
        onChoose={(place) => {
          setFound(place)
          setView({ latitude: place.latitude, longitude: place.longitude, seq: (view?.seq ?? 0) + 1 })
        }}
      />
      {found && (
        <p className="inline found-place" role="status">
          <span>Map centred on {found.label}.</span>{' '}
          <button
            type="button"
            className="secondary"
            onClick={() => {
              dispatch({ type: 'locationPicked', latitude: found.latitude, longitude: found.longitude })
              setFound(null)
            }}
          >
            Put the location here
          </button>
        </p>
      )}
      <p className="hint" id="map-hint">
        Click the map to put the location there, or drag the marker; with the marker focused, arrow keys move it (Shift for bigger steps).
      </p>
      <LocationPickerLoader
        latitude={location?.latitude ?? null}
        longitude={location?.longitude ?? null}
        onPick={(latitude, longitude) => dispatch({ type: 'locationPicked', latitude, longitude })}
        tiles={tiles}
        recenter={recenter}
        view={view}
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
      <LocationPrecisionField values={values} onChange={(locationPrecision) => edit({ locationPrecision })} />
    </fieldset>
  )
}
