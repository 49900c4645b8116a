import { formatCoordinate } from '@/app/admin/_components/format'
import type { NoticeValue } from '@/app/admin/_components/notice'
import { latitudeFieldSchema, longitudeFieldSchema, postFormSchema, type PostFormValues } from '@/lib/admin/forms'
import { fieldErrorsOf, type FieldErrors } from '@/lib/http/params'
import type { EditablePost, PostEditorContext } from '@/lib/admin/posts'
import { effectiveStatus } from '@/lib/admin/schedule'
import type { AttachmentGps } from '@/lib/api/contract'
import { withZoneOffset } from '@/lib/dates'
import { isoDateSchema } from '@/lib/places/post-fields'

// The post editor's state and every change to it, as named actions: the form's values and their problems, the
// saved post, and "Import location from media" (looking, asking before replacing a location, what it found).

export type GpsState =
  { state: 'idle' } | { state: 'loading' } | { state: 'confirm'; found: AttachmentGps } | { state: 'message'; tone: 'ok' | 'warning' | 'error'; text: string }

export type EditorState = {
  /** the post as last saved */
  post: EditablePost
  /** the statuses the user may give it now */
  statuses: string[]
  values: PostFormValues
  errors: FieldErrors
  notice: NoticeValue | undefined
  /** whether the values differ from the post saved */
  dirty: boolean
  gps: GpsState
  /** bumped to move the location map to the location typed or found */
  recenter: number
}

export type EditorAction =
  | { type: 'edited'; patch: Partial<PostFormValues> }
  | { type: 'left'; fields: (keyof PostFormValues)[] }
  | { type: 'locationPicked'; latitude: number; longitude: number }
  | { type: 'recentered' }
  | { type: 'refused'; errors: FieldErrors; text: string }
  | { type: 'saved'; context: PostEditorContext }
  | { type: 'noticed'; notice: NoticeValue }
  | { type: 'gpsLooking' }
  | { type: 'gpsFound'; found: AttachmentGps }
  | { type: 'gpsReplaced' }
  | { type: 'gpsKept' }
  | { type: 'gpsNotFound'; imagesChecked: number }
  | { type: 'gpsFailed'; text: string }
  | { type: 'restored'; values: PostFormValues }

export function toValues(post: EditablePost): PostFormValues {
  return {
    title: post.title,
    content: post.content,
    excerpt: post.excerpt,
    status: post.status as PostFormValues['status'],
    type: post.type,
    slug: post.slug,
    date: post.date,
    categoryIds: post.categoryIds,
    newCategories: [],
    tags: post.tags,
    address: post.address,
    locationPrecision: post.locationPrecision,
    latitude: post.latitude === null ? '' : String(post.latitude),
    longitude: post.longitude === null ? '' : String(post.longitude),
    tripId: post.tripId,
  }
}

export function initialEditorState({ post, allowedStatuses }: Pick<PostEditorContext, 'post' | 'allowedStatuses'>): EditorState {
  return {
    post,
    statuses: allowedStatuses,
    values: toValues(post),
    errors: {},
    notice: undefined,
    dirty: false,
    gps: { state: 'idle' },
    recenter: 0,
  }
}

/** The coordinates typed so far, when both are valid; else null (the map then shows no marker). */
export function typedLocation(values: PostFormValues): { latitude: number; longitude: number } | null {
  const latitude = latitudeFieldSchema.safeParse(values.latitude)
  const longitude = longitudeFieldSchema.safeParse(values.longitude)
  if (!latitude.success || !longitude.success || latitude.data === null || longitude.data === null) return null
  return { latitude: latitude.data, longitude: longitude.data }
}

/**
 * What is wrong with one field as it stands, by itself: that a latitude needs a longitude is said on saving only,
 * not while the user is still on the way to typing the other.
 */
function problemWith(values: PostFormValues, field: keyof PostFormValues): string | undefined {
  if (field === 'latitude' || field === 'longitude') {
    const parsed = (field === 'latitude' ? latitudeFieldSchema : longitudeFieldSchema).safeParse(values[field])
    return parsed.success ? undefined : parsed.error.issues[0]?.message
  }
  const parsed = postFormSchema.safeParse(values)
  return parsed.success ? undefined : fieldErrorsOf(parsed.error)[field]
}

function withProblems(errors: FieldErrors, values: PostFormValues, fields: (keyof PostFormValues)[]): FieldErrors {
  if (fields.length === 0) return errors
  const next = { ...errors }
  for (const field of fields) {
    const problem = problemWith(values, field)
    if (problem) next[field] = problem
    else delete next[field]
  }
  return next
}

function edited(state: EditorState, patch: Partial<PostFormValues>): EditorState {
  const values = { ...state.values, ...patch }
  // A field marked wrong is checked again as it is corrected, so its message goes as soon as it is right.
  const fixing = (Object.keys(patch) as (keyof PostFormValues)[]).filter((field) => state.errors[field])
  return { ...state, values, dirty: true, notice: undefined, errors: withProblems(state.errors, values, fixing) }
}

function locationPicked(state: EditorState, latitude: number, longitude: number): EditorState {
  const next = edited(state, { latitude: String(latitude), longitude: String(longitude) })
  const { latitude: _latitude, longitude: _longitude, ...errors } = next.errors
  return { ...next, errors }
}

function locationFound(state: EditorState, found: AttachmentGps): EditorState {
  const next = locationPicked(state, found.latitude, found.longitude)
  const text = `Location filled in from the photo “${found.attachment_title}” (${formatCoordinate(found.latitude)}, ${formatCoordinate(found.longitude)}). Save the post to keep it.`
  return { ...next, recenter: state.recenter + 1, gps: { state: 'message', tone: 'ok', text } }
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'edited':
      return edited(state, action.patch)
    case 'left':
      // Checks fields as the user leaves them; other fields' messages stay as they are.
      return { ...state, errors: withProblems(state.errors, state.values, action.fields) }
    case 'locationPicked':
      return locationPicked(state, action.latitude, action.longitude)
    case 'recentered':
      return { ...state, recenter: state.recenter + 1 }
    case 'refused':
      return { ...state, errors: action.errors, notice: { tone: 'error', text: action.text } }
    case 'saved': {
      const { post, allowedStatuses } = action.context
      // What "Import location from media" said ("… Save the post to keep it.") is done with once saved.
      const gps: GpsState = state.gps.state === 'loading' || state.gps.state === 'confirm' ? state.gps : { state: 'idle' }
      return { ...state, post, values: toValues(post), statuses: allowedStatuses, errors: {}, dirty: false, gps, notice: { tone: 'ok', text: 'Saved.' } }
    }
    case 'noticed':
      return { ...state, notice: action.notice }
    case 'gpsLooking':
      return { ...state, gps: { state: 'loading' } }
    case 'gpsFound': {
      // A location already there, and another: the user says which to keep.
      const location = typedLocation(state.values)
      const same = location && location.latitude === action.found.latitude && location.longitude === action.found.longitude
      return location && !same ? { ...state, gps: { state: 'confirm', found: action.found } } : locationFound(state, action.found)
    }
    case 'gpsReplaced':
      return state.gps.state === 'confirm' ? locationFound(state, state.gps.found) : state
    case 'gpsKept':
      return { ...state, gps: { state: 'message', tone: 'ok', text: 'The location was kept as it was.' } }
    case 'gpsNotFound': {
      const checked = action.imagesChecked
      const text =
        checked === 0
          ? 'This post has no photos to look at: upload some below first. The location was not changed.'
          : `No photo of this post has GPS data: ${checked} ${checked === 1 ? 'photo was' : 'photos were'} looked at. The location was not changed.`
      return { ...state, gps: { state: 'message', tone: 'warning', text } }
    }
    case 'gpsFailed':
      return { ...state, gps: { state: 'message', tone: 'error', text: `${action.text} The location was not changed.` } }
    case 'restored':
      // The autosaved copy replaces the form as a whole; it is unsaved until saved.
      return {
        ...state,
        values: action.values,
        errors: {},
        dirty: true,
        notice: { tone: 'ok', text: 'The autosaved version was restored. Save to keep it.' },
        recenter: state.recenter + 1,
      }
  }
}

/** The post's date as typed, the wall clock of the site's `timeZone` (as the server takes it), or null while it is not a date. */
export function typedDate(values: PostFormValues, timeZone: string): Date | null {
  const parsed = isoDateSchema.safeParse(withZoneOffset(values.date, timeZone))
  return parsed.success ? parsed.data : null
}

/**
 * The values to send: the date as the instant saved while it reads as saved, so that an hour a clock change repeats,
 * or a zone changed meanwhile, never moves it; else as typed, the site's wall clock (lib/admin/posts.ts parsePostForm).
 */
export function valuesToSend(values: PostFormValues, post: EditablePost): PostFormValues {
  // An unchanged trip is left out, so a trip another editor set meanwhile is not set back (lib/admin/forms.ts).
  const { tripId, ...rest } = values.date === post.date ? { ...values, date: post.publishedAt } : values
  return tripId === post.tripId ? rest : { ...rest, tripId }
}

/** The status the server will store for the status chosen and the date typed (a future date schedules, a past one publishes). */
export function statusToStore(values: PostFormValues, now: Date, timeZone: string): string {
  const date = typedDate(values, timeZone)
  return date ? effectiveStatus(values.status, date, now) : values.status
}

/**
 * What the main button says, as WordPress's does: what saving will do to the post. Without publish_posts
 * (contributors) a post can only go to review.
 */
export function submitLabel(state: Pick<EditorState, 'post' | 'statuses' | 'values'>, now: Date, timeZone: string): string {
  const stored = statusToStore(state.values, now, timeZone)
  const was = state.post.status
  if (stored === 'draft') return 'Save draft'
  if (!state.statuses.includes('publish')) return was === 'pending' ? 'Update' : 'Submit for review'
  if (stored === 'pending') return was === 'pending' ? 'Update' : 'Save as pending'
  if (stored === 'future') return was === 'future' ? 'Update' : 'Schedule'
  if (stored === 'publish') return was === 'publish' ? 'Update' : 'Publish'
  return 'Update'
}
