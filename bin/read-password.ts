// The password of `places user create` and `places user set-password`, from where it is not exposed.
//
// A password given as an argument (--password P) can be read by every user of the machine in the process list
// while the command runs (`ps`, /proc/PID/cmdline), and stays in the shell's history. So the command asks for it on
// the terminal, without echo, or reads it from standard input (--password-stdin, as `docker login` does), which a
// script fills from a file or a secret store. --password still works: scripts call it.

/** Where the password comes from, as the command was called. */
export type PasswordSource = { password?: string; stdin: boolean }

/** A mistake in how the command was called (bin/cli.ts prints the usage and exits 2). */
export class PasswordUsageError extends Error {}

/** What the help of the commands that take a password says about it. */
export const PASSWORD_HELP = [
  'The password is asked for on the terminal, without echo (twice, to catch a typing mistake).',
  'In a script, pass it on standard input with --password-stdin: one line, its trailing newline dropped, e.g.',
  '  places user set-password --email you@example.org --password-stdin < password-file',
  '--password P works too, but is unsafe: while the command runs, every user of this machine can read P in the',
  "process list (ps), and it stays in your shell's history.",
].join('\n')

const MAX_BYTES = 64 * 1024

async function readStdinLine(): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BYTES) throw new PasswordUsageError('--password-stdin: standard input is far too long for a password')
    chunks.push(chunk)
  }
  const text = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
  if (/[\r\n]/.test(text)) throw new PasswordUsageError('--password-stdin: standard input must hold the password alone, on one line')
  if (text === '') throw new PasswordUsageError('--password-stdin: standard input holds no password')
  return text
}

/**
 * Asks each prompt in turn on the terminal and reads a line for it, with echo off (raw mode: nothing typed is
 * shown), from before the first prompt appears to after the last answer. Backspace works; Ctrl-C cancels, which
 * raw mode delivers as a character rather than a signal.
 */
async function askHidden(prompts: string[]): Promise<string[]> {
  const input = process.stdin
  input.setRawMode(true)
  input.setEncoding('utf8')
  const answers: string[] = []
  try {
    await new Promise<void>((resolve, reject) => {
      let typed = ''
      let previous = ''
      const onData = (chunk: string) => {
        for (const char of chunk) {
          const isEnter = char === '\r' || char === '\u0004' || (char === '\n' && previous !== '\r')
          previous = char
          if (char === '\u0003') {
            input.off('data', onData)
            process.stderr.write('\n')
            return reject(new Error('cancelled'))
          }
          if (isEnter) {
            answers.push(typed)
            typed = ''
            process.stderr.write('\n')
            if (answers.length === prompts.length) {
              input.off('data', onData)
              return resolve()
            }
            process.stderr.write(prompts[answers.length]!)
          } else if (char === '\u007f' || char === '\b') typed = Array.from(typed).slice(0, -1).join('')
          else if (char >= ' ') typed += char
        }
      }
      input.on('data', onData)
      input.resume()
      process.stderr.write(prompts[0]!)
    })
  } finally {
    input.setRawMode(false)
    input.pause()
  }
  return answers
}

/**
 * The password, from --password, --password-stdin or the terminal. Without any of them and without a terminal
 * there is no one to ask: an error saying what to do.
 */
export async function readPassword(source: PasswordSource): Promise<string> {
  if (source.password !== undefined && source.stdin) throw new PasswordUsageError('give --password or --password-stdin, not both')
  if (source.password !== undefined) {
    if (source.password === '') throw new PasswordUsageError('--password is empty')
    return source.password
  }
  if (source.stdin) return readStdinLine()
  if (!process.stdin.isTTY) {
    throw new PasswordUsageError('no password: pass it on standard input with --password-stdin, or run this on a terminal to be asked for it')
  }
  const [password, again] = await askHidden(['Password: ', 'Password again: '])
  if (!password) throw new PasswordUsageError('no password was typed')
  if (again !== password) throw new PasswordUsageError('the two passwords differ; nothing was changed')
  return password
}
