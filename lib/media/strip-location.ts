import 'server-only'
import { ExifTool } from 'exiftool-vendored'
import { closeBeforeExit } from '../on-exit'
import { exiftoolProcessFactory } from './exiftool-process'

// ExifTool (the Perl original, shipped in the exiftool-vendored.pl package) rewrites every format we accept,
// WebP and HEIC included, without re-encoding the image. One long-lived process serves all requests.
let exiftool: ExifTool | undefined

function getExiftool(): ExifTool {
  // Started so that it dies with this process, however this process dies (lib/media/exiftool-process.ts).
  if (!exiftool) {
    exiftool = new ExifTool({ maxProcs: 1, taskTimeoutMillis: 30_000, processFactory: exiftoolProcessFactory() })
    closeBeforeExit(endExiftool)
  }
  return exiftool
}

/**
 * Removes the metadata of an image file in place: GPS, and with it every other place a location hides (XMP,
 * IPTC, maker notes, comments). Only what the picture needs to be shown right stays: orientation and colour profile.
 * Returns false when ExifTool cannot rewrite the file (a damaged image): then no copy may be served, since one
 * cannot be made safe.
 */
export async function stripMetadata(file: string): Promise<boolean> {
  try {
    await getExiftool().write(
      file,
      {},
      {
        writeArgs: ['-all=', '-Orientation<Orientation', '-ICC_Profile<ICC_Profile', '-overwrite_original'],
      },
    )
    return true
  } catch (error) {
    console.warn(`An image could not be stripped of its metadata, so it will not be served: ${(error as Error).message.split(' - ')[0]}`)
    return false
  }
}

/** Ends the ExifTool process (the command line's, before it exits: lib/on-exit.ts). */
export async function endExiftool(): Promise<void> {
  const running = exiftool
  exiftool = undefined
  await running?.end()
}
