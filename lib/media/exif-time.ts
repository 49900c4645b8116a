import ExifReader from 'exifreader'
import { withZoneOffset } from '../dates'

// When and with what a photo was taken, as its EXIF says: what placing photos by a track's times needs
// (lib/trips/locate-from-track.ts). Read from the original file when it is needed, as ExifTool reads the EXIF tags.

/** A photo's time as the camera wrote it: its clock's wall time, and the offset from UTC where the camera knew it. */
export type PhotoTime = { wallClock: string; offset: string | null }

/** A camera as its photos name it ("Apple iPhone 4", "Canon EOS 30D"); '' when they do not. */
export type PhotoFacts = { time: PhotoTime | null; camera: string }

const TAGS = ['DateTimeOriginal', 'OffsetTimeOriginal', 'SubSecTimeOriginal', 'Make', 'Model']
// EXIF writes `2011:01:13 14:33:39`; a camera without a set clock writes zeros or spaces, which are no time.
const EXIF_DATE_TIME = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/
const EXIF_OFFSET = /^[+-]\d{2}:\d{2}$/

function text(tag: { value?: unknown } | undefined): string {
  const value: unknown = Array.isArray(tag?.value) ? tag.value[0] : tag?.value
  return typeof value === 'string' ? value.replace(/\0/g, '').trim() : ''
}

/** The photo's EXIF time and camera; none of either when the file has none or cannot be read (this never throws). */
export function readPhotoFacts(file: ArrayBuffer | Buffer): PhotoFacts {
  let exif: Record<string, { value?: unknown } | undefined>
  try {
    exif = (ExifReader.load(file, { expanded: true, includeTags: { exif: TAGS } }).exif ?? {}) as typeof exif
  } catch {
    return { time: null, camera: '' }
  }
  const make = text(exif.Make).replace(/\s+/g, ' ')
  const model = text(exif.Model).replace(/\s+/g, ' ')
  // Many cameras repeat the make in the model ("Canon" and "Canon EOS 30D").
  const camera = model.toLowerCase().startsWith(make.split(' ')[0]!.toLowerCase()) ? model : `${make} ${model}`.trim()
  const match = EXIF_DATE_TIME.exec(text(exif.DateTimeOriginal))
  const month = Number(match?.[2])
  const day = Number(match?.[3])
  if (!match || month < 1 || month > 12 || day < 1 || day > 31) return { time: null, camera }
  const [, y, mo, d, h, mi, s] = match
  const subSeconds = /^\d+$/.exec(text(exif.SubSecTimeOriginal))?.[0]
  const offset = text(exif.OffsetTimeOriginal)
  return {
    time: { wallClock: `${y}-${mo}-${d}T${h}:${mi}:${s}${subSeconds ? `.${subSeconds.slice(0, 3)}` : ''}`, offset: EXIF_OFFSET.test(offset) ? offset : null },
    camera,
  }
}

/** The instant a photo's time names: at its own offset, else as the wall clock in `timeZone` (the site's). */
export function instantOf(time: PhotoTime, timeZone: string): number {
  return Date.parse(time.offset ? `${time.wallClock}${time.offset}` : withZoneOffset(time.wallClock, timeZone))
}
