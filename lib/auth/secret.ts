import 'server-only'
import { createHmac, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { getConfig } from '../config'
import { getDialect } from '../db'

let secret: string | undefined

/**
 * Why the server may not start, or null: on PostgreSQL it may run on several machines, whose secrets made apart would
 * sign sessions and ETags each its own way (a session made by one would be refused by the next).
 */
export function sharedSecretMissing(): string | null {
  if (getConfig().authSecret || getDialect() !== 'postgresql') return null
  return 'AUTH_SECRET must be set when DATABASE_URL is PostgreSQL: the same secret of 32 characters or more on every instance (openssl rand -base64 32).'
}

/** AUTH_SECRET, else a secret made once and kept in ./data/auth-secret (set AUTH_SECRET when several instances run). */
export function getAuthSecret(): string {
  secret ??= readAuthSecret()
  return secret
}

function readAuthSecret(): string {
  const configured = getConfig().authSecret
  if (configured) return configured
  const file = path.resolve('data', 'auth-secret')
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    const secret = randomBytes(32).toString('base64url')
    try {
      writeFileSync(file, secret, { flag: 'wx', mode: 0o600 })
      return secret
    } catch {
      return readFileSync(file, 'utf8').trim() // another process wrote it first
    }
  }
}

/**
 * A keyed hash of `value` (HMAC-SHA-256 under the auth secret, 128 bits in base64url): the same on every instance
 * that shares AUTH_SECRET, and telling nothing of `value` to whoever lacks the secret.
 */
export function keyedHash(value: string): string {
  return createHmac('sha256', `places-keyed-hash\n${getAuthSecret()}`).update(value).digest('base64url').slice(0, 22)
}
