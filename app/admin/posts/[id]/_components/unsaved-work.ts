'use client'

import { useEffect, useRef } from 'react'
import type { PostFormValues } from '@/lib/admin/forms'

// Never lose an editor's work (README.md, "Editing a post"): while the form differs from the post saved, every
// way out of the page asks first, and a copy of the form is kept in this browser to be offered back, as WordPress's
// autosave does.

const LEAVE_QUESTION = 'You have unsaved changes. Leave this page and lose them?'

export type Autosave = { savedAt: string; values: PostFormValues }

const PREFIX = 'places:autosave:'
const KEPT_MS = 7 * 24 * 60 * 60 * 1000

/**
 * Where one user's copy of one post is kept. Per user, so that someone else signing in on this browser is never
 * offered it (WordPress keys its browser copies by user too); signing out clears them all (clearAutosaves).
 */
export const autosaveSlot = (userId: number, postId: number) => `${PREFIX}${userId}:post:${postId}`

/** The copy kept in `slot`, or null (none, a week old or more, or unreadable: storage full, private mode, an older shape). */
export function readAutosave(slot: string): Autosave | null {
  try {
    const raw = window.localStorage.getItem(slot)
    if (!raw) return null
    const parsed = JSON.parse(raw) as Partial<Autosave>
    if (typeof parsed.savedAt !== 'string' || !parsed.values || typeof parsed.values !== 'object') return null
    if (!(Date.now() - Date.parse(parsed.savedAt) < KEPT_MS)) {
      clearAutosave(slot)
      return null
    }
    return parsed as Autosave
  } catch {
    return null
  }
}

export function writeAutosave(slot: string, values: PostFormValues): void {
  try {
    window.localStorage.setItem(slot, JSON.stringify({ savedAt: new Date().toISOString(), values } satisfies Autosave))
  } catch {
    // A full or disabled storage only costs the copy; the leave guard still asks.
  }
}

export function clearAutosave(slot: string): void {
  try {
    window.localStorage.removeItem(slot)
  } catch {
    // nothing kept, nothing to clear
  }
}

/** Every copy of every user, on signing out: what was typed in this browser does not outlive the session. */
export function clearAutosaves(): void {
  try {
    const keys = Array.from({ length: window.localStorage.length }, (_, i) => window.localStorage.key(i))
    for (const key of keys) if (key?.startsWith(PREFIX)) window.localStorage.removeItem(key)
  } catch {
    // nothing kept, nothing to clear
  }
}

// What this file uses of the Navigation API, which TypeScript's DOM types do not describe yet.
type NavigateEvent = Event & { navigationType: 'push' | 'replace' | 'reload' | 'traverse'; destination: { url: string; sameDocument: boolean } }
type Navigation = {
  addEventListener: (type: 'navigate', listener: (event: NavigateEvent) => void) => void
  removeEventListener: (type: 'navigate', listener: (event: NavigateEvent) => void) => void
}

/** Whether a link click is one this page would follow itself (not a new tab, a download or a jump within the page). */
function leavesThePage(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false
  if ((anchor.target && anchor.target !== '_self') || anchor.hasAttribute('download')) return false
  const to = new URL(anchor.href, window.location.href)
  const here = new URL(window.location.href)
  return !(to.hash && to.pathname === here.pathname && to.search === here.search)
}

/**
 * While `dirty`: the browser's own question on reload, closing the tab, Back to another site and typed addresses
 * (beforeunload), and a confirmation before following any link on the page (the admin's links are plain anchors)
 * and before Back or Forward to another page of the admin (the Navigation API's navigate event).
 * The values are copied to localStorage a second after the last edit, and at once when the page goes away. Returns `allowLeaving`, for a
 * way out the editor takes on purpose (Move to Trash).
 */
export function useUnsavedWork(slot: string, dirty: boolean, values: PostFormValues): { allowLeaving: () => void } {
  const leaving = useRef(false)
  const state = useRef({ dirty, values })
  useEffect(() => {
    state.current = { dirty, values }
  }, [dirty, values])

  useEffect(() => {
    if (!dirty) return
    const timer = window.setTimeout(() => writeAutosave(slot, values), 1000)
    return () => window.clearTimeout(timer)
  }, [slot, dirty, values])

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!state.current.dirty || leaving.current) return
      writeAutosave(slot, state.current.values)
      event.preventDefault()
      // Chromium before 119 and Safari ask only when returnValue is set.
      event.returnValue = ''
    }
    const onClick = (event: MouseEvent) => {
      if (!state.current.dirty || leaving.current || !(event.target instanceof Element)) return
      const anchor = event.target.closest('a[href]')
      if (!(anchor instanceof HTMLAnchorElement) || !leavesThePage(event, anchor)) return
      writeAutosave(slot, state.current.values)
      if (window.confirm(LEAVE_QUESTION)) {
        // Asked once: the browser's beforeunload question would ask again.
        leaving.current = true
        return
      }
      event.preventDefault()
      event.stopPropagation()
    }
    // Back or Forward to another page of the admin within this document: the App Router swaps the page in place,
    // with no beforeunload. The Navigation API's navigate event comes before it, and may cancel it (where the browser
    // has that API and lets this traversal be cancelled; elsewhere the copy is still kept, on unmount below).
    const onNavigate = (event: NavigateEvent) => {
      if (event.navigationType !== 'traverse' || !event.destination.sameDocument || !event.cancelable) return
      if (!state.current.dirty || leaving.current || new URL(event.destination.url).pathname === window.location.pathname) return
      writeAutosave(slot, state.current.values)
      if (window.confirm(LEAVE_QUESTION)) leaving.current = true
      else event.preventDefault()
    }
    const navigation = (window as { navigation?: Navigation }).navigation
    window.addEventListener('beforeunload', onBeforeUnload)
    navigation?.addEventListener('navigate', onNavigate)
    document.addEventListener('click', onClick, true)
    return () => {
      // Unmounted while dirty: the App Router took the page away in place (Back in a browser without the Navigation
      // API), with nothing to cancel: the copy is kept, and offered on return.
      if (state.current.dirty && !leaving.current) writeAutosave(slot, state.current.values)
      window.removeEventListener('beforeunload', onBeforeUnload)
      navigation?.removeEventListener('navigate', onNavigate)
      document.removeEventListener('click', onClick, true)
    }
  }, [slot])

  return {
    allowLeaving: () => {
      leaving.current = true
    },
  }
}
