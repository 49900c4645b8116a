import 'server-only'
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import sharp, { type Sharp } from 'sharp'
import { decodeHeic, HeicDecodeError } from './heic-pool'
import { incomingPath, mediaStore } from './store'

// The sizes pages show of an uploaded image (README, Photos): made once, from the original, at upload and by
// `places media regenerate`; never per request. Each is turned upright by the EXIF orientation, keeps the image's
// colour profile and nothing else of its metadata (no GPS, no camera), and is stored under a name made from its
// bytes: what is at a name never changes, so a published post's sizes can be cached for good (SECURITY.md).

/**
 * The width of each size: thumbnail, small, medium, large; none taller than MAX_HEIGHT, none enlarged. By width,
 * not by the long edge, because browsers choose from `srcset` by width: with sizes of 160, 800 and 1,600 px on the
 * long edge a portrait's medium was 600 px wide, too narrow for a phone (412 px at 1.75×: 721 px), and the phone
 * took the 1,200 px large, 2.8 times the pixels (BENCHMARKS.md, What a phone loads). The small serves popups and the
 * gallery (240 px at 1.75–2×).
 */
export const RENDITION_WIDTHS = [160, 480, 800, 1600] as const
export const MEDIUM_WIDTH = 800
/** The large's long edge, as before: a portrait's largest size stays 1,200x1,600, a very tall image no taller. */
const MAX_HEIGHT = 1600

export type RenditionFormat = 'jpeg' | 'webp'
const EXTENSIONS: Record<RenditionFormat, string> = { jpeg: 'jpg', webp: 'webp' }
export const MIME_TYPES: Record<RenditionFormat, string> = { jpeg: 'image/jpeg', webp: 'image/webp' }

export type Rendition = { format: RenditionFormat; width: number; height: number; fileName: string }

/** A rendition's name: 32 hex digits and its extension, which the uploads route accepts and nothing else. */
export const RENDITION_NAME = /^[0-9a-f]{32}\.(jpg|webp)$/

// libwebp's effort 2 of 0–6 (default 4): about a third less CPU per upload for files a few per cent larger, measured
// on the corpus; an upload makes eight files, and the server's other requests wait for the CPU it takes.
const WEBP_EFFORT = 2
// WebP at 75, cwebp's and Next.js's default: 17% fewer bytes than 80 for the demo's lead photo at 800 px (163 → 135 KB),
// which is what a phone's largest paint waits for (BENCHMARKS.md, issue 50). JPEG, the fallback, stays at 80.
const WEBP_QUALITY = 75

const HEIF_TYPES = new Set(['image/heic', 'image/heif'])

// Each size opens the image anew rather than through sharp's clone(): clone() copies its input with structuredClone
// on the event loop, which for a HEIC's decoded pixels (48 MB for 12 MP) held it about 150 ms a size.
type Decoded = { open: () => Sharp; width: number; height: number }

/**
 * A file of an accepted type whose pixels cannot be decoded (cut off, or damaged): Places refuses it at upload
 * (lib/media/storage.ts); `places media regenerate` counts the ones stored before that rule.
 */
export class UndecodableImage extends Error {
  constructor(readonly reason: string | null) {
    super(reason ?? 'the image cannot be decoded')
    this.name = 'UndecodableImage'
  }
}

/**
 * libvips's and libheif's words for what is wrong, without their prefixes ("VipsJpeg: "); null when they said
 * nothing useful. libvips keeps one error buffer for the process, so under concurrent uploads a message can be lost
 * ("Unknown error"): the refusal never depends on the words, only on the decode failing.
 */
function reasonOf(error: unknown): string | null {
  const text = error instanceof Error ? error.message : String(error)
  const reason = (text.split('\n')[0] ?? '').replace(/^[A-Za-z]+:\s*/, '').trim()
  return reason === '' || /^unknown error$/i.test(reason) ? null : reason
}

/**
 * The first top-level box of an ISO base media file (HEIC, HEIF, AVIF) that claims more bytes than the file has: a file cut
 * off. libheif decodes such a file without complaint (the missing part of the picture comes out grey), so its
 * container is checked first.
 */
function cutOffBox(bytes: Buffer): string | null {
  let offset = 0
  while (offset + 8 <= bytes.length) {
    let size = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    if (size === 1) {
      if (offset + 16 > bytes.length) return type
      size = Number(bytes.readBigUInt64BE(offset + 8))
    } else if (size === 0) return null // the last box, to the end of the file
    if (size < 8 || offset + size > bytes.length) return type
    offset += size
  }
  return offset === bytes.length ? null : 'the last box'
}

/**
 * The image, decoded and upright, ready to resize; throws UndecodableImage when it cannot be decoded (a file
 * Places accepts by its type may still be broken). Files it needs for a while go into `temporary`.
 */
async function decode(bytes: Buffer, mimeType: string, temporary: string[]): Promise<Decoded> {
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null)
  if (HEIF_TYPES.has(mimeType)) {
    // libvips here has no HEVC decoder; libheif in WebAssembly decodes iPhone photos, already turned by the file's
    // own rotation, in a worker thread (lib/media/heic-pool.ts). The colour profile, read from the container, is
    // attached to the pixels as they are.
    const cut = cutOffBox(bytes)
    if (cut !== null) throw new UndecodableImage(`the file ends inside its “${cut}” part`)
    const { width, height, data } = await decodeHeic(bytes).catch((error: unknown) => {
      if (error instanceof HeicDecodeError) throw new UndecodableImage(error.reason === null ? null : reasonOf(error))
      throw error
    })
    if (!data || !width || !height) throw new UndecodableImage('no picture in the file')
    const pixels = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    const raw = () => sharp(pixels, { raw: { width, height, channels: 4 } })
    if (!meta?.icc) return { open: raw, width, height }
    const profile = incomingPath(`${randomUUID()}.icc`)
    temporary.push(profile)
    await writeFile(profile, meta.icc)
    return { open: () => raw().withIccProfile(profile), width, height }
  }
  if (!meta?.width || !meta.height) throw new UndecodableImage('not a readable image')
  // AVIF is the same container, decoded by libheif inside libvips: a cut-off file is refused by its boxes too.
  const cut = mimeType === 'image/avif' ? cutOffBox(bytes) : null
  if (cut !== null) throw new UndecodableImage(`the file ends inside its “${cut}” part`)
  // failOn 'error' (libvips's level, which includes 'truncated'): a JPEG cut off before its end, or with damaged
  // pixel data, is refused when the sizes are made; libjpeg's mere warnings (extraneous bytes before a marker)
  // pass, as browsers show such photos.
  // The size once turned upright: orientations 5 to 8 swap width and height.
  const { width, height } = meta.autoOrient
  return { open: () => sharp(bytes, { failOn: 'error' }).autoOrient().keepIccProfile(), width, height }
}

function nameOf(salt: string, bytes: Buffer, format: RenditionFormat): string {
  // The attachment's path in the hash keeps two uploads of the same photo apart: each name belongs to one attachment.
  const hash = createHash('sha256').update(salt).update('\0').update(bytes).digest('hex').slice(0, 32)
  return `${hash}.${EXTENSIONS[format]}`
}

/**
 * Makes the sizes of an original (its bytes, to be stored as `filePath`) and puts them in the store; returns them.
 * `inUse`: names recorded already, which a failure leaves in place.
 * Making them is the one full decode of an upload: an image that does not decode throws UndecodableImage, a HEIC
 * that holds the decoder past its time limit HeicDecodeTimeout. On any failure nothing it wrote is left behind.
 */
export async function createRenditions(
  original: Buffer,
  mimeType: string,
  filePath: string,
  { inUse = new Set<string>() }: { inUse?: ReadonlySet<string> } = {},
): Promise<Rendition[]> {
  await mkdir(incomingPath(), { recursive: true, mode: 0o700 })
  const made: Rendition[] = []
  const temporary: string[] = []
  try {
    const decoded = await decode(original, mimeType, temporary)
    // Two sizes at the same scale (an image narrower than both, or one so tall that its height bounds both) would be
    // the same pixels twice: the srcset names each width once.
    const scaleOf = (width: number) => Math.min(1, width / decoded.width, MAX_HEIGHT / decoded.height)
    const widths = RENDITION_WIDTHS.filter((width, i) => RENDITION_WIDTHS.findIndex((w) => scaleOf(w) === scaleOf(width)) === i)
    const encoded: { rendition: Rendition; temp: string }[] = []
    for (const width of widths) {
      for (const format of ['jpeg', 'webp'] as const) {
        const resized = decoded.open().resize({ width, height: MAX_HEIGHT, fit: 'inside', withoutEnlargement: true })
        const output = format === 'jpeg' ? resized.jpeg({ quality: 80, progressive: true }) : resized.webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT })
        const result = await output.toBuffer({ resolveWithObject: true }).catch((error: unknown) => {
          throw new UndecodableImage(reasonOf(error))
        })
        const temp = incomingPath(`${randomUUID()}.rendition`)
        temporary.push(temp)
        await writeFile(temp, result.data)
        encoded.push({ rendition: { format, width: result.info.width, height: result.info.height, fileName: nameOf(filePath, result.data, format) }, temp })
      }
    }
    const puts = await Promise.allSettled(
      encoded.map(async ({ rendition, temp }) => {
        await mediaStore().put('renditions', rendition.fileName, temp, MIME_TYPES[rendition.format])
        made.push(rendition)
      }),
    )
    const failed = puts.find((put) => put.status === 'rejected')
    if (failed) throw failed.reason
    return encoded.map(({ rendition }) => rendition)
  } catch (error) {
    // Not the names recorded already (a regenerate makes the same names): their rows still point at them.
    await removeRenditionFiles(made.map((r) => r.fileName).filter((name) => !inUse.has(name)))
    throw error
  } finally {
    await Promise.all(temporary.map((file) => rm(file, { force: true })))
  }
}

export async function removeRenditionFiles(fileNames: string[]): Promise<void> {
  await mediaStore().remove('renditions', fileNames)
}
