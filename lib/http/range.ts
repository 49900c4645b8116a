// HTTP range requests (RFC 9110, section 14), for the files the site serves in parts (/basemap.pmtiles).

/**
 * The byte range a `Range` header asks of a file of `size` bytes, first and last byte included; null to send the
 * whole file (no header, a unit other than bytes, a header that does not parse, or several ranges, which RFC 9110
 * lets a server ignore); 'unsatisfiable' for a 416, a range that starts past the file's end.
 */
export function byteRange(header: string | null, size: number): [first: number, last: number] | null | 'unsatisfiable' {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/)
  if (!match || (match[1] === '' && match[2] === '')) return null
  const [first, last] = [match[1]!, match[2]!]
  if (first === '') {
    // The last N bytes.
    const length = Number(last)
    return length === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - length), size - 1]
  }
  const start = Number(first)
  if (last !== '' && Number(last) < start) return null
  return start >= size ? 'unsatisfiable' : [start, last === '' ? size - 1 : Math.min(Number(last), size - 1)]
}
