'use client'
import type { Map as LeafletMap } from 'leaflet'
import { useEffect, useRef, useState } from 'react'
import { filterParams, toBBox, type MapFilter } from './use-places-map-data'

// "Download": the places in view, with the map's filter and search, as a file (GET /places/v1/export, docs/api.md).
// A disclosure of plain links rather than an ARIA menu: each is a link to a file, reached with Tab, as links are;
// Escape or a click elsewhere closes it.

const FORMATS = [
  { format: 'geojson', label: 'GeoJSON', note: 'for GIS and web maps' },
  { format: 'kml', label: 'KML', note: 'for Google Earth and My Maps' },
  { format: 'gpx', label: 'GPX', note: 'for GPS devices and apps' },
  { format: 'csv', label: 'CSV', note: 'for spreadsheets' },
] as const

type Props = { map: LeafletMap; filter: MapFilter }

/** The address of the file of the map's view: the same filters as the map's own requests (GET /geojson). */
export function exportUrl(format: string, { map, filter }: Props): string {
  const params = new URLSearchParams({ format })
  for (const [name, value] of Object.entries(filterParams(filter))) if (value !== undefined) params.set(name, value)
  params.set('bbox', toBBox(map.getBounds()).join(','))
  return `/places/v1/export?${params}`
}

export function DownloadMenu(props: Props) {
  const { map } = props
  const [isOpen, setOpen] = useState(false)
  const [, setMoved] = useState(0)
  const container = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!isOpen) return
    // The links follow the view while the list is open (a drag, a zoom).
    const moved = () => setMoved((count) => count + 1)
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    const onPointer = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false)
    }
    map.on('moveend', moved)
    document.addEventListener('keydown', onKey)
    document.addEventListener('pointerdown', onPointer)
    return () => {
      map.off('moveend', moved)
      document.removeEventListener('keydown', onKey)
      document.removeEventListener('pointerdown', onPointer)
    }
  }, [isOpen, map])

  return (
    <div className="download-menu" ref={container}>
      <button
        ref={button}
        type="button"
        className="map-button"
        aria-expanded={isOpen}
        aria-controls="download-formats"
        onClick={() => setOpen((open) => !open)}
      >
        Download
      </button>
      <div id="download-formats" className="download-formats" hidden={!isOpen}>
        <p className="download-heading">The places in view, as</p>
        <ul>
          {FORMATS.map(({ format, label, note }) => (
            <li key={format}>
              {/* Chosen: the file downloads and the list closes, as a menu does. */}
              <a href={exportUrl(format, props)} download onClick={() => setOpen(false)}>
                {label}
              </a>{' '}
              <span className="post-meta">{note}</span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
