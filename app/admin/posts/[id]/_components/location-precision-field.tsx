'use client'

import { useEffect, useState } from 'react'
import { formatCoordinate } from '@/app/admin/_components/format'
import { previewPublicLocationAction } from '@/app/admin/posts/location-actions'
import type { PostFormValues } from '@/lib/admin/forms'
import type { PublicPreview } from '@/lib/admin/places'
import { LOCATION_PRECISIONS, LOCATION_PRECISION_TEXT, type LocationPrecision } from '@/lib/places/location-levels'
import { typedLocation } from './post-editor-state'

// How precisely the public sees the location (docs/privacy.md): the post's level, and below it what the public would
// see with the location as it stands, asked of the server's rule (lib/places/visibility.ts) as it is edited, so that
// a privacy zone (which the editor may not know of) is said before saving, not after. Contributors, who cannot
// publish, get no preview (lib/admin/places.ts).

const PREVIEW_DELAY_MS = 300

export function LocationPrecisionField({ values, onChange }: { values: PostFormValues; onChange: (level: LocationPrecision) => void }) {
  const preview = usePublicPreview(values)
  return (
    <fieldset className="location-precision">
      <legend>Who sees the location</legend>
      {LOCATION_PRECISIONS.map((level) => (
        <div key={level} className="radio-option">
          <input
            type="radio"
            id={`precision-${level}`}
            name="locationPrecision"
            value={level}
            checked={values.locationPrecision === level}
            onChange={() => onChange(level)}
            aria-describedby={`precision-${level}-hint`}
          />
          <label htmlFor={`precision-${level}`}>{LOCATION_PRECISION_TEXT[level].label}</label>
          <p id={`precision-${level}-hint`} className="hint">
            {LOCATION_PRECISION_TEXT[level].hint}
          </p>
        </div>
      ))}
      <p className="public-preview" role="status" aria-live="polite">
        {preview && describePreview(preview)}
      </p>
    </fieldset>
  )
}

function usePublicPreview(values: PostFormValues): PublicPreview | null {
  const [preview, setPreview] = useState<PublicPreview | null>(null)
  const point = typedLocation(values)
  const latitude = point?.latitude ?? null
  const longitude = point?.longitude ?? null
  const { address, locationPrecision } = values
  useEffect(() => {
    let current = true
    const timer = setTimeout(() => {
      void previewPublicLocationAction({ latitude, longitude, address: address.trim(), locationPrecision }).then((result) => {
        if (current) setPreview(result.ok ? result.data : null)
      })
    }, PREVIEW_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [latitude, longitude, address, locationPrecision])
  return preview
}

function describePreview(preview: PublicPreview): string {
  const zone = preview.raisedByZone
    ? `This point is inside a privacy zone, so the public sees it as “${LOCATION_PRECISION_TEXT[preview.level].label}” at least. `
    : ''
  if (!preview.point && !preview.address) return `${zone}Once published, the public sees no location.`
  const where = preview.point ? `the point ${formatCoordinate(preview.point.latitude)}, ${formatCoordinate(preview.point.longitude)}` : 'no point'
  return `${zone}Once published, the public sees ${where}${preview.address ? ` and the address “${preview.address}”` : ' and no address'}.`
}
