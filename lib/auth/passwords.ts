import 'server-only'
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { getHashSlots } from './hash-slots'

// scrypt at OWASP's recommended cost (N=2^15, r=8, p=3): about 32 MiB and a tenth of a second a hash. Every hash
// takes a slot of lib/auth/hash-slots.ts, so that hashing never holds all of the thread pool.
const PARAMS = { N: 2 ** 15, r: 8, p: 3 } as const
const KEY_LENGTH = 32

/** Who a hash is for: the client address it counts against, and whether it goes first (lib/auth/hash-slots.ts). */
export type HashFor = { client?: string | null; priority?: boolean }

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }, hashFor: HashFor = {}): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r }
  return getHashSlots().run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
      ),
    hashFor,
  )
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url: the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, PARAMS)
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Throws a 429 ApiError, before hashing, when the server has no room for another hash now. */
export async function verifyPassword(password: string, stored: string, hashFor: HashFor = {}): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, hashFor)
  return key.length === expected.length && timingSafeEqual(key, expected)
}
