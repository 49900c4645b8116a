import ExifReader from 'exifreader'

export type Gps = { latitude: number; longitude: number }

/**
 * The rules of docs/api.md, Types in the attachment GPS result on coordinates read from a photo: both must be finite numbers in range, and the
 * pair 0,0 (what cameras write when they have no fix) counts as missing.
 */
export function usableGps(latitude: unknown, longitude: unknown): Gps | null {
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return null
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null
  if (latitude === 0 && longitude === 0) return null
  return { latitude, longitude }
}

const HEMISPHERES = { lat: ['N', 'S'], lng: ['E', 'W'] } as const
const GPS_TAGS = ['GPSLatitude', 'GPSLatitudeRef', 'GPSLongitude', 'GPSLongitudeRef']

function reference(tag: { value?: unknown } | undefined): string | undefined {
  const value: unknown = Array.isArray(tag?.value) ? tag.value[0] : tag?.value
  return typeof value === 'string' ? value.trim().toUpperCase() : undefined
}

/**
 * The EXIF GPS position of an image (JPEG, PNG, WebP, TIFF, HEIC, AVIF…), signed decimal degrees, or null when it
 * has none usable. ExifReader agrees with ExifTool on the whole real-photo corpus (test/fixtures/exif). Without
 * both hemisphere references a position cannot be signed, so it counts as missing. A corrupt, empty or
 * truncated file has no GPS: this never throws.
 */
export function readGps(file: ArrayBuffer | Buffer): Gps | null {
  try {
    // Only the GPS tags: faster, and no XMP parsing (which wants a DOMParser the server does not have).
    const tags = ExifReader.load(file, { expanded: true, includeTags: { exif: GPS_TAGS, gps: true } })
    const latRef = reference(tags.exif?.GPSLatitudeRef)
    const lngRef = reference(tags.exif?.GPSLongitudeRef)
    if (!HEMISPHERES.lat.some((h) => h === latRef) || !HEMISPHERES.lng.some((h) => h === lngRef)) return null
    return usableGps(tags.gps?.Latitude, tags.gps?.Longitude)
  } catch {
    return null
  }
}
