import http, { type IncomingHttpHeaders } from 'node:http'

// A browser at a client address of its own. The per-client limits (lib/auth/client-limit.ts, hash-slots.ts) count
// the address the server's socket sees, so a test that exhausts them must not do it from 127.0.0.1, where the other
// tests run: on Linux all of 127/8 is this machine, and a request may be sent from 127.0.0.N to the server at
// 127.0.0.1. Playwright's request contexts cannot choose their source address; node:http can.

export type Answer = { status: number; headers: IncomingHttpHeaders; text: string; ms: number }

export type Attempt = Answer & {
  /** next-auth set a session cookie and named no error */
  ok: boolean
  /** next-auth's `{url}`: `…?error=<message>` when it refused */
  url: string
  /** the message of `?error=`, if any */
  error: string | null
}

export class ClientAt {
  readonly cookies = new Map<string, string>()

  constructor(
    readonly baseURL: string,
    /** the source address, 127.0.0.N */
    readonly address: string,
  ) {}

  request(method: string, path: string, { body, headers = {} }: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Answer> {
    const url = new URL(path, this.baseURL)
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
    const start = performance.now()
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          method,
          localAddress: this.address,
          agent: false,
          headers: { ...(cookie ? { Cookie: cookie } : {}), ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}), ...headers },
        },
        (response) => {
          let text = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (text += chunk))
          response.on('end', () => {
            for (const line of response.headers['set-cookie'] ?? []) {
              const [pair = ''] = line.split(';')
              const equals = pair.indexOf('=')
              const [name, value] = [pair.slice(0, equals).trim(), pair.slice(equals + 1).trim()]
              if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(name)
              else this.cookies.set(name, value)
            }
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text, ms: performance.now() - start })
          })
        },
      )
      // The server may answer (413) without reading a body it refuses and close the connection under it: the
      // write fails, sometimes before the answer is read. Status 0 says the server closed it without one.
      let answered = false
      request.on('response', () => (answered = true))
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!['EPIPE', 'ECONNRESET'].includes(error.code ?? '')) reject(error)
        else if (!answered) resolve({ status: 0, headers: {}, text: error.code ?? '', ms: performance.now() - start })
      })
      request.end(body)
    })
  }

  /** Fetches next-auth's CSRF token (and its cookie), as the sign-in page does before posting. */
  async csrfToken(): Promise<string> {
    const answer = await this.request('GET', '/api/auth/csrf')
    if (answer.status !== 200) throw new Error(`GET /api/auth/csrf: ${answer.status} ${answer.text.slice(0, 200)}`)
    return (JSON.parse(answer.text) as { csrfToken: string }).csrfToken
  }

  /** Posts the sign-in form as next-auth's client does (`json: true`), with a token from csrfToken(). */
  async signIn(email: string, password: string, { csrfToken, headers = {} }: { csrfToken?: string; headers?: Record<string, string> } = {}): Promise<Attempt> {
    const token = csrfToken ?? (await this.csrfToken())
    const body = new URLSearchParams({ csrfToken: token, email, password, json: 'true' }).toString()
    this.cookies.delete('next-auth.session-token')
    const answer = await this.request('POST', '/api/auth/callback/credentials', {
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    })
    let url = ''
    try {
      url = (JSON.parse(answer.text) as { url?: string }).url ?? ''
    } catch {
      // not JSON
    }
    const error = url ? new URL(url).searchParams.get('error') : null
    return { ...answer, url, error, ok: this.cookies.has('next-auth.session-token') && error === null }
  }
}
