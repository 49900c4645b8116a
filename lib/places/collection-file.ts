import { createReadStream } from 'node:fs'

// A FeatureCollection file read as it streams, at the speed of JSON.parse: the bytes are scanned for the elements
// of the top-level `features` array (strings and brackets followed, nothing else), and each element is given to
// JSON.parse whole as soon as its last byte is read; the commas between them are checked as they come. The rest of
// the document (its `type`, other members) is kept with the features array empty, and parsed at the end: the whole
// file is checked as JSON, in the memory of one feature. A token parser (stream-json) read 14 MB/s here; this
// reads about 75 (BENCHMARKS.md).

/** The file is not one JSON object with `"type": "FeatureCollection"` and one `features` array. */
export class NotACollection extends Error {}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const BOM = [0xef, 0xbb, 0xbf]
const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** The last key of `text` that a value follows: `"features": ` → features. */
function keyBefore(text: string): string | undefined {
  const key = /"((?:[^"\\]|\\.)*)"\s*:\s*$/.exec(text.slice(-4096))?.[1]
  return key === undefined ? undefined : (JSON.parse(`"${key}"`) as string)
}

/**
 * The elements of the file's `features` array, each parsed, in order. Throws a SyntaxError where the file is not
 * JSON (an element as soon as it is read, the rest at the end) and NotACollection where it is JSON but not a
 * FeatureCollection; fs errors as they are. `chunkSize`: bytes read at a time (tests make it small).
 */
export async function* readCollectionFile(file: string, chunkSize = 1 << 20): AsyncGenerator<unknown> {
  const decoder = new TextDecoder('utf-8', { fatal: false })
  let skeleton = '' // the document but the features: its features array is kept empty
  let depth = 0 // brackets open around the byte
  let inString = false
  let backslashes = 0 // a string's backslashes just before the chunk's end (an odd count escapes the next byte)
  let read = 0 // bytes of the file before the chunk
  let started = false // a byte other than white space was read
  let inFeatures = false // in the top-level features array
  let next: 'first' | 'feature' | 'comma' = 'first' // what the features array may hold next, between its features
  let featureArrays = 0
  let element: Buffer[] | null = null // the bytes of the feature being read
  let primitive = false // the feature is a number, true, false or null (it ends before `,`, `]` or white space)

  for await (const chunk of createReadStream(file, { highWaterMark: chunkSize }) as AsyncIterable<Buffer>) {
    let from = 0 // where the chunk's part not yet kept (in the skeleton, or as the feature's) starts
    const finishElement = (end: number) => {
      element!.push(chunk.subarray(from, end))
      const text = element!.length === 1 ? element![0]!.toString('utf8') : Buffer.concat(element!).toString('utf8')
      element = null
      primitive = false
      from = end
      return JSON.parse(text) as unknown
    }
    let i = 0
    while (i < chunk.length) {
      // A byte order mark, as Windows programs begin UTF-8 files with, is not part of the JSON.
      if (read + i < BOM.length && chunk[i] === BOM[read + i]) {
        from = ++i
        continue
      }
      if (inString) {
        const quote = chunk.indexOf(QUOTE, i)
        if (quote < 0) {
          let k = chunk.length - 1
          while (k >= i && chunk[k] === BACKSLASH) k--
          backslashes = k < i ? backslashes + chunk.length - i : chunk.length - 1 - k
          break
        }
        let k = quote - 1
        while (k >= i && chunk[k] === BACKSLASH) k--
        const before = quote - 1 - k + (k < i ? backslashes : 0)
        backslashes = 0
        i = quote + 1
        if (before % 2 === 0) {
          inString = false
          if (element && depth === 2) yield finishElement(i) // a string feature
        }
        continue
      }
      const byte = chunk[i]!
      if (primitive && (byte === COMMA || byte === CLOSE_ARRAY || isSpace(byte))) yield finishElement(i)
      if (!started && !isSpace(byte)) {
        started = true
        if (byte !== OPEN_OBJECT) throw new NotACollection()
      }
      if (inFeatures && !element) {
        // Between the features: white space, a comma between two, the array's end. Checked here, kept nowhere.
        if (byte === CLOSE_ARRAY) {
          if (next === 'feature') throw new SyntaxError('A comma after the last feature')
          inFeatures = false
          depth--
          from = i++ // the `]` goes to the skeleton
          continue
        }
        if (byte === COMMA) {
          if (next !== 'comma') throw new SyntaxError('A comma where a feature should be')
          next = 'feature'
        } else if (!isSpace(byte)) {
          if (next === 'comma') throw new SyntaxError('Two features without a comma between them')
          next = 'comma'
          element = []
          from = i
          primitive = byte !== OPEN_OBJECT && byte !== OPEN_ARRAY && byte !== QUOTE
        }
        if (!element) {
          from = ++i
          continue
        }
      }
      if (byte === QUOTE) inString = true
      else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        depth++
        if (depth === 2 && byte === OPEN_ARRAY && !element) {
          skeleton += decoder.decode(chunk.subarray(from, i), { stream: true })
          from = i
          if (keyBefore(skeleton) === 'features') {
            skeleton += '['
            from = i + 1
            inFeatures = true
            next = 'first'
            featureArrays++
          }
        }
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth--
        if (element && depth === 2) yield finishElement(i + 1)
        if (depth < 0) throw new SyntaxError(`Unexpected "${String.fromCharCode(byte)}"`)
      }
      i++
    }
    read += chunk.length
    if (element) element.push(chunk.subarray(from))
    else skeleton += decoder.decode(chunk.subarray(from), { stream: true })
  }
  if (element || inString || inFeatures) throw new SyntaxError('Unexpected end of the file')
  skeleton += decoder.decode()
  // The features array is empty here: its features were given one by one.
  const document = JSON.parse(skeleton) as unknown
  const { type, features } = typeof document === 'object' && document !== null && !Array.isArray(document) ? (document as Record<string, unknown>) : {}
  if (type !== 'FeatureCollection' || featureArrays !== 1 || !Array.isArray(features) || features.length > 0) throw new NotACollection()
}
