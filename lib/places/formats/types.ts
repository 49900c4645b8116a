// What every reader of an import file makes, apart from read.ts, which calls the readers.

/** A place as a reader makes it: a feature of the import format (docs/cli.md), and what problems call it. */
export type ReadEntry = { feature: ImportFeatureInput; label: string }

/** The import format's feature before its check: only the properties a file gave. */
export type ImportFeatureInput = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: number[] } | null
  properties: Record<string, unknown>
}

/** What the CSV reader finds in a file; an import file of any format says what it skipped, refused and noted so. */
export type ReadResult = {
  entries: ReadEntry[]
  /** items that are no place (a KML area, an image overlay), each with what it is: they are left out, not refused */
  skipped: string[]
  /** problems that refuse the whole file (a CSV number that is none): the import then writes nothing */
  refused: string[]
  /** what else the reader has to say (CSV columns it did not read) */
  notes: string[]
}
