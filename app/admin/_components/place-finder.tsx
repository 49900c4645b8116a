'use client'

import { useId, useRef, useState, type KeyboardEvent } from 'react'
import type { PlaceSuggestion } from '@/lib/admin/places'

type Props = {
  /** the places whose name starts with the query; a message when the question failed */
  find: (query: string) => Promise<PlaceSuggestion[] | { error: string }>
  onChoose: (place: PlaceSuggestion) => void
}

/**
 * "Find a place": a combobox with a list of towns (WAI-ARIA APG's combobox with list autocomplete). Typing asks the
 * gazetteer; Down and Up move through the list, Enter chooses, Escape closes the list, then clears the box.
 */
export function PlaceFinder({ find, onChoose }: Props) {
  const id = useId()
  const listId = `${id}-list`
  const [query, setQuery] = useState('')
  const [places, setPlaces] = useState<PlaceSuggestion[]>([])
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [status, setStatus] = useState('')
  // Answers can come back out of order; only the one for the latest query counts.
  const latest = useRef(0)

  async function search(text: string) {
    setQuery(text)
    setActive(-1)
    const asked = ++latest.current
    if (text.trim() === '') {
      setPlaces([])
      setOpen(false)
      setStatus('')
      return
    }
    const answer = await find(text)
    if (asked !== latest.current) return
    if ('error' in answer) {
      setPlaces([])
      setOpen(false)
      setStatus(answer.error)
      return
    }
    setPlaces(answer)
    setOpen(answer.length > 0)
    setStatus(answer.length === 0 ? 'No town by that name.' : `${answer.length} ${answer.length === 1 ? 'place' : 'places'} found.`)
  }

  function choose(place: PlaceSuggestion) {
    latest.current++
    setQuery(place.label)
    setOpen(false)
    setActive(-1)
    setStatus('')
    onChoose(place)
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = places.length
    switch (event.key) {
      case 'ArrowDown':
        if (count === 0) return
        event.preventDefault()
        setOpen(true)
        setActive((index) => (index + 1) % count)
        return
      case 'ArrowUp':
        if (count === 0) return
        event.preventDefault()
        setOpen(true)
        setActive((index) => (index <= 0 ? count - 1 : index - 1))
        return
      case 'Enter': {
        // Enter in the box never submits the post's form; with an option active, it chooses it.
        event.preventDefault()
        const place = open ? places[active] : undefined
        if (place) choose(place)
        return
      }
      case 'Escape':
        event.preventDefault()
        event.stopPropagation()
        if (open) setOpen(false)
        else void search('')
        setActive(-1)
        return
    }
  }

  return (
    <div className="place-finder field">
      <label htmlFor={`${id}-input`}>Find a place</label>
      <input
        id={`${id}-input`}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${id}-option-${active}` : undefined}
        aria-describedby={`${id}-hint`}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(event) => void search(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setOpen(false)}
      />
      <p id={`${id}-hint`} className="hint">
        A town’s name, to show it on the map. Places from GeoNames (CC BY 4.0), offline.
      </p>
      <ul id={listId} role="listbox" aria-label="Places" className="place-finder-list" hidden={!open}>
        {places.map((place, index) => (
          <li
            key={`${place.label}-${place.latitude}-${place.longitude}`}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'active' : undefined}
            // mousedown, not click: the box's blur would close the list before a click lands
            onMouseDown={(event) => {
              event.preventDefault()
              choose(place)
            }}
          >
            {place.label}
          </li>
        ))}
      </ul>
      <p className="visually-hidden" aria-live="polite">
        {status}
      </p>
    </div>
  )
}
