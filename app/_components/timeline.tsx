'use client'
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import type { Timeline as TimelineCounts } from '@/lib/api/contract'
import { daysInMonth, pad } from '@/lib/dates'

// The map's timeline (issue 53, "places in time"): how many places in view were published in each year or month
// (GET /places/v1/timeline), as bars; a period chosen by a click, a range by dragging across the bars or by typing its
// first and last days. The days go to the map as `after` and `before` (docs/api.md, after and before).

export type Days = { after: string; before: string }

type Props = { counts: TimelineCounts | null; days: Days; onChange: (days: Days) => void }

type Bar = { start: string; end: string; count: number }

// Days typed go to the map this long after the last key (or when the field is left): a date input makes a valid date
// of each digit of a year as it is typed (0002, 0020, 0202, 2024), and each would load the map.
const TYPING_MS = 600

// Past this many periods from the first to the last, only those with places are drawn: no bar is thinner than a pixel.
const MAX_BARS = 120

const monthName = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' })
const monthShort = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' })

/** A period's name: its year, or its month and year (the days are the site's, named as they are written). */
function periodName(start: string, unit: TimelineCounts['unit'], format = monthName): string {
  return unit === 'year' ? start.slice(0, 4) : format.format(Date.parse(`${start}T00:00:00Z`))
}

/** Every period from the first with places to the last, those without places counted 0 (up to MAX_BARS). */
function barsOf({ unit, periods }: TimelineCounts): Bar[] {
  if (periods.length === 0) return []
  const monthsOf = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1
  const step = unit === 'year' ? 12 : 1
  const [first, last] = [monthsOf(periods[0]!.start), monthsOf(periods.at(-1)!.start)]
  if ((last - first) / step + 1 > MAX_BARS) return periods
  const counted = new Map(periods.map((period) => [period.start, period]))
  const bars: Bar[] = []
  for (let months = first; months <= last; months += step) {
    const [year, month] = [Math.floor(months / 12), (months % 12) + 1]
    const start = `${pad(year, 4)}-${pad(month)}-01`
    const end = unit === 'year' ? `${pad(year, 4)}-12-31` : `${pad(year, 4)}-${pad(month)}-${pad(daysInMonth(year, month))}`
    bars.push(counted.get(start) ?? { start, end, count: 0 })
  }
  return bars
}

const isChosen = (bar: Bar, { after, before }: Days) => (after !== '' || before !== '') && (!after || bar.start >= after) && (!before || bar.end <= before)

export function Timeline({ counts, days, onChange }: Props) {
  const bars = counts ? barsOf(counts) : []
  const unit = counts?.unit ?? 'year'
  const most = Math.max(1, ...bars.map((bar) => bar.count))
  // A drag across the bars: where it began and where the pointer is now (indexes of bars).
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null)
  // One Tab stop for the bars, arrows between them (the list after them is many Tabs already): from outside, the
  // chosen period's first bar, else the one focused last; among them, the one focused.
  const [focused, setFocused] = useState(0)
  const [within, setWithin] = useState(false)
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  // The days in the two fields: the map's, or as they are being typed.
  const [typed, setTyped] = useState(days)
  const [shown, setShown] = useState(days)
  if (shown.after !== days.after || shown.before !== days.before) {
    setShown(days)
    setTyped(days)
  }
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(typing.current), [])
  // A bar or Any time: what was being typed is dropped.
  const apply = (next: Days) => {
    clearTimeout(typing.current)
    onChange(next)
  }
  const type = (next: Days) => {
    setTyped(next)
    clearTimeout(typing.current)
    typing.current = setTimeout(() => onChange(next), TYPING_MS)
  }
  const commitTyped = () => {
    if (typed.after !== days.after || typed.before !== days.before) apply(typed)
  }

  const choose = (from: number, to: number) => {
    const [first, last] = [bars[Math.min(from, to)], bars[Math.max(from, to)]]
    if (!first || !last) return
    // The one period already chosen, chosen again: any time.
    const same = days.after === first.start && days.before === last.end
    apply(same ? { after: '', before: '' } : { after: first.start, before: last.end })
  }

  useEffect(() => {
    if (!drag) return
    const end = () => {
      choose(drag.from, drag.to)
      setDrag(null)
    }
    // A swipe the browser takes over (the panel scrolled up or down across the bars) chooses nothing.
    const cancel = () => setDrag(null)
    window.addEventListener('pointerup', end)
    window.addEventListener('pointercancel', cancel)
    return () => {
      window.removeEventListener('pointerup', end)
      window.removeEventListener('pointercancel', cancel)
    }
  })

  const onKeyDown = (event: ReactKeyboardEvent) => {
    const moves: Record<string, number> = { ArrowLeft: focused - 1, ArrowRight: focused + 1, Home: 0, End: bars.length - 1 }
    if (!(event.key in moves)) return
    event.preventDefault()
    const next = Math.max(0, Math.min(bars.length - 1, moves[event.key]!))
    setFocused(next)
    buttons.current[next]?.focus()
  }

  const chosenBar = bars.findIndex((bar) => isChosen(bar, days))
  const stop = !within && chosenBar >= 0 ? chosenBar : Math.min(focused, bars.length - 1)

  const chosen = (bar: Bar, i: number) => (drag ? i >= Math.min(drag.from, drag.to) && i <= Math.max(drag.from, drag.to) : isChosen(bar, days))

  return (
    <fieldset className="timeline">
      <legend>Published</legend>
      {bars.length > 0 && (
        <>
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- arrow keys between the bars, each a button */}
          <div
            className="timeline-bars"
            role="group"
            aria-label={`Places in view per ${unit}: choose one, or drag across several`}
            onKeyDown={onKeyDown}
            onBlur={(event) => {
              if (!event.currentTarget.contains(event.relatedTarget)) setWithin(false)
            }}
          >
            {bars.map((bar, i) => (
              <button
                key={bar.start}
                ref={(element) => {
                  buttons.current[i] = element
                }}
                type="button"
                className={`timeline-bar${chosen(bar, i) ? ' is-chosen' : ''}`}
                tabIndex={i === stop ? 0 : -1}
                // Pressed: this period is the one shown (pressing it again shows any time); a range shows in the count.
                aria-pressed={days.after === bar.start && days.before === bar.end}
                aria-label={`${periodName(bar.start, unit)}: ${bar.count.toLocaleString('en')} ${bar.count === 1 ? 'place' : 'places'}`}
                title={`${periodName(bar.start, unit)}: ${bar.count.toLocaleString('en')}`}
                onPointerDown={(event) => {
                  if (event.button !== 0) return
                  // A finger's pointer is captured by the bar it touched: let go, so the bars it crosses see it.
                  event.currentTarget.releasePointerCapture(event.pointerId)
                  setDrag({ from: i, to: i })
                }}
                onPointerEnter={() => setDrag((current) => (current ? { ...current, to: i } : current))}
                // The keyboard's click (a pointer's ends the drag instead).
                onClick={(event) => {
                  if (event.detail === 0) choose(i, i)
                }}
                onFocus={() => {
                  setFocused(i)
                  setWithin(true)
                }}
              >
                <span className="timeline-bar-fill" style={{ height: `${bar.count === 0 ? 0 : Math.max(4, (bar.count / most) * 100)}%` }} />
              </button>
            ))}
          </div>
          <p className="timeline-ends" aria-hidden="true">
            <span>{periodName(bars[0]!.start, unit, monthShort)}</span>
            <span>{periodName(bars.at(-1)!.start, unit, monthShort)}</span>
          </p>
        </>
      )}
      <div className="timeline-days">
        <label>
          From
          <input
            type="date"
            value={typed.after}
            max={typed.before || undefined}
            // A first day typed past the last moves the last: the range is never empty.
            onChange={({ target: { value } }) => type({ after: value, before: value && typed.before && value > typed.before ? value : typed.before })}
            onBlur={commitTyped}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={typed.before}
            min={typed.after || undefined}
            onChange={({ target: { value } }) => type({ after: value && typed.after && value < typed.after ? value : typed.after, before: value })}
            onBlur={commitTyped}
          />
        </label>
      </div>
      {(days.after || days.before) && (
        <button type="button" className="link-button" onClick={() => apply({ after: '', before: '' })}>
          Any time
        </button>
      )}
    </fieldset>
  )
}
