import 'server-only'
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { isIP, type BlockList } from 'node:net'
import { onEveryRequest } from '../http/server-requests'

// The address a sign-in comes from, for the per-client limits (lib/auth/client-limit.ts, lib/auth/hash-slots.ts).
//
// Route handlers cannot see the socket: Next.js passes its address on only as X-Forwarded-For, and only when the
// client sent none (`req.headers['x-forwarded-for'] ??= socket.remoteAddress` in next/dist/server/base-server.js),
// so a client could name any address it likes. So every request is looked at as the HTTP server emits it, in
// this process (`next start` serves in the process that runs instrumentation.ts): X-Forwarded-For is kept only from
// a proxy named in TRUSTED_PROXIES and deleted from anyone else (Next then sets it to the socket's address), and the
// client's address is stamped on the request in a header of our own. The stamp carries a secret made at start,
// so that a request the filter never saw (one that arrived while the server was starting, before register() ran)
// cannot bring a stamp of its own: such requests share one address, UNVERIFIED.

const STAMP = 'x-places-client-address'
export const UNVERIFIED = 'unverified'

const SHARED = Symbol.for('places.client-address-secret')
const shared = globalThis as typeof globalThis & { [SHARED]?: string }

/** `::ffff:192.0.2.1` is 192.0.2.1; IPv6 in its shortest form (`2001:0db8:0::1` is `2001:db8::1`). */
export function normalizeAddress(address: string): string {
  const lower = address.trim().toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (mapped) return mapped[1]!
  return isIP(lower) === 6 ? new URL(`http://[${lower}]`).hostname.slice(1, -1) : lower
}

/** An X-Forwarded-For entry as an address: proxies may add a port (`192.0.2.1:443`, `[2001:db8::1]:443`). */
function entryAddress(entry: string): string | null {
  const trimmed = entry.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed)
  const candidate = bracketed ? bracketed[1]! : isIP(trimmed) ? trimmed : trimmed.replace(/:\d+$/, '')
  return isIP(candidate) ? normalizeAddress(candidate) : null
}

/** Whether `address` (normalized) is one of the trusted proxies or in one of their ranges. */
function isTrusted(trusted: BlockList, address: string): boolean {
  const version = isIP(address)
  return version !== 0 && trusted.check(address, version === 6 ? 'ipv6' : 'ipv4')
}

/**
 * The client of a request whose socket is `peer`: the peer itself, or behind trusted proxies the address X-Forwarded-
 * For names last that is not itself a trusted proxy (each proxy appends the address it saw).
 */
export function clientOf(peer: string, forwardedFor: string | undefined, trusted: BlockList): string {
  let client = normalizeAddress(peer)
  if (!isTrusted(trusted, client) || !forwardedFor) return client
  for (const entry of forwardedFor.split(',').reverse()) {
    const address = entryAddress(entry)
    if (address === null) break // garbage: the last address known is as far as the chain can be believed
    client = address
    if (!isTrusted(trusted, address)) break
  }
  return client
}

/** Installs the filter on every HTTP(S) server of this process; once. */
export function installClientAddressFilter(trusted: BlockList): void {
  if (shared[SHARED]) return
  const secret = randomBytes(18).toString('base64url')
  shared[SHARED] = secret
  onEveryRequest((request) => stamp(request, trusted, secret))
}

function stamp(request: IncomingMessage, trusted: BlockList, secret: string): void {
  const peer = normalizeAddress(request.socket.remoteAddress ?? '')
  if (!isTrusted(trusted, peer)) delete request.headers['x-forwarded-for']
  const forwarded = request.headers['x-forwarded-for']
  request.headers[STAMP] = `${secret} ${clientOf(peer, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trusted)}`
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>

/** The address of the client that sent these request headers (a route handler's, or next-auth's `req.headers`). */
export function clientAddress(headers: HeaderSource): string {
  const raw = headers instanceof Headers ? headers.get(STAMP) : headers[STAMP]
  const value = Array.isArray(raw) ? raw[0] : raw
  const secret = shared[SHARED]
  return secret && value?.startsWith(`${secret} `) ? value.slice(secret.length + 1) : UNVERIFIED
}

/**
 * What limits are kept under for an address: an IPv4 address, or an IPv6 address's /64 (one home or one server
 * is given a whole /64, and could otherwise take a new address for each attempt).
 */
export function clientKey(address: string): string {
  if (isIP(address) !== 6) return address
  const [head = '', tail = ''] = address.split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}
