// `npx places` as a process: bin/places.mjs runs the bundle of this file in a child node. One command (bin/cli.ts),
// then exit with its code.
import { main } from './cli'

// Started by bin/places.mjs: stop when it is gone (killed, say), with whatever transaction is open rolled back.
process.on('disconnect', () => process.exit(130))

// Exits once all that was written has gone out: a pipe whose reader is slow still holds part of it, which
// process.exit would otherwise cut off (an export, say, would end mid-file).
const flushed = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()))
void main(process.argv.slice(2)).then(async (code) => {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)])
  process.exit(code)
})
